/**
 * The copy buttons CopyButton.astro renders (the payment page, issue 29). The words are the page's (data
 * attributes), so this script carries none. Where `navigator.clipboard` is missing (older in-app browsers
 * of LINE and Facebook, pages not over https) or refuses, the value is shown in a field, selected, under
 * `กดค้างเพื่อคัดลอก`: the phone's own long-press copy works everywhere.
 */
const TOAST_MS = 3000;

let toastSlot: HTMLElement | undefined;
let toastTimer: ReturnType<typeof setTimeout> | undefined;

/** One polite live region for the page, there before the first copy so screen readers announce it. */
function slot(): HTMLElement {
  if (!toastSlot) {
    toastSlot = document.createElement('div');
    toastSlot.className = 'copy-toast-slot';
    toastSlot.setAttribute('role', 'status');
    toastSlot.setAttribute('aria-live', 'polite');
    toastSlot.dataset.testid = 'copy-toast';
    document.body.append(toastSlot);
  }
  return toastSlot;
}

function toast(text: string): void {
  const box = document.createElement('div');
  box.className = 'toast show text-bg-success border-0 mw-100';
  const body = document.createElement('div');
  body.className = 'toast-body';
  body.textContent = text;
  box.append(body);
  clearTimeout(toastTimer);
  slot().replaceChildren(box);
  toastTimer = setTimeout(() => slot().replaceChildren(), TOAST_MS);
}

function showFallback(fallback: HTMLElement): void {
  fallback.hidden = false;
  const field = fallback.querySelector('input')!;
  field.focus();
  // select() alone leaves nothing selected in iOS Safari's read-only fields.
  field.setSelectionRange(0, field.value.length);
  field.select();
}

async function copy(holder: HTMLElement): Promise<void> {
  const value = holder.dataset.copyValue ?? '';
  const fallback = holder.querySelector<HTMLElement>('.copy-fallback')!;
  try {
    if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
    await navigator.clipboard.writeText(value);
  } catch {
    showFallback(fallback);
    return;
  }
  fallback.hidden = true;
  toast(holder.dataset.copied ?? '');
}

/** Called by CopyButton.astro's script: every copy button on the page shows and works. */
export function enhanceCopyButtons(): void {
  document.querySelectorAll<HTMLElement>('[data-copy-value]').forEach((holder) => {
    const button = holder.querySelector('button');
    if (!button || button.dataset.enhanced) return;
    button.dataset.enhanced = 'true';
    slot();
    button.addEventListener('click', () => void copy(holder));
    button.hidden = false;
  });
}
