/**
 * The 2px progress bar at the top of every page (the element lives in the layouts). Page navigations
 * drive it from the layout script; islands call these around their own requests.
 */
const BAR_ID = 'nav-progress';
let timer: ReturnType<typeof setInterval> | undefined;
let width = 0;

function bar(): HTMLElement | null {
  return typeof document === 'undefined' ? null : document.getElementById(BAR_ID);
}

export function startProgress(): void {
  const element = bar();
  if (!element) return;
  clearInterval(timer);
  width = 8;
  element.classList.remove('is-failed');
  element.classList.add('is-loading');
  element.style.width = `${width}%`;
  // Creep towards 90% so a slow answer still shows movement.
  timer = setInterval(() => {
    width += (90 - width) * 0.1;
    element.style.width = `${width}%`;
  }, 200);
}

export function doneProgress(): void {
  const element = bar();
  clearInterval(timer);
  if (!element) return;
  element.style.width = '100%';
  setTimeout(() => {
    element.classList.remove('is-loading');
    element.style.width = '0';
  }, 300);
}

export function failProgress(): void {
  const element = bar();
  clearInterval(timer);
  if (!element) return;
  element.classList.remove('is-loading');
  element.classList.add('is-failed');
  setTimeout(() => {
    element.classList.remove('is-failed');
    element.style.width = '0';
  }, 2500);
}

/** fetch() with the progress bar: red when the request fails or answers 5xx. */
export async function trackedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  startProgress();
  try {
    const response = await fetch(input, init);
    if (response.status >= 500) failProgress();
    else doneProgress();
    return response;
  } catch (error) {
    failProgress();
    throw error;
  }
}
