import { normalizeText } from '../../lib/thai-text';

/**
 * The navbar search box's behaviour, for the form SearchBox.astro renders. Without JavaScript the form
 * still works as a plain GET to /search (which redirects to /search/{keyword}). With it: the
 * empty-keyword alert, and suggestions as you type (arrow keys, Enter, Escape), following the ARIA
 * combobox pattern. Plain DOM rather than a React island: it shares no state with the islands, and
 * React's render of it cost every page a server render and 2 KB of script (docs/decisions/146).
 * Navbar.astro loads this module when a search box is first focused or submitted, so pages where
 * nobody searches do not download it (docs/decisions/147).
 */
export const SEARCH_EMPTY_TITLE = 'แจ้งเตือน';
export const SEARCH_EMPTY_TEXT = 'กรุณาป้อนข้อมูลเพื่อค้นหา';
/** Wait this long after the last key before asking for suggestions. */
const SUGGEST_DELAY_MS = 250;

interface Suggestion {
  kind: 'product' | 'category' | 'brand';
  label: string;
  href: string;
}

const kindLabel: Record<Suggestion['kind'], string> = { product: 'สินค้า', category: 'ประเภทสินค้า', brand: 'แบรนด์' };

/**
 * Enhances a search form once, then replays what made Navbar.astro load this module: a focus opens the
 * list and asks for suggestions of what was typed meanwhile; a submit is submitted again, now checked.
 */
export function enhanceSearchBox(form: HTMLFormElement, trigger: Event): void {
  const input = form.querySelector<HTMLInputElement>('input[role="combobox"]');
  const list = form.querySelector<HTMLUListElement>('[role="listbox"]');
  if (!input || !list) return;
  // A focus and a submit can both be waiting for this module; the form is enhanced for the first.
  if (!form.dataset.enhanced) {
    form.dataset.enhanced = 'true';
    listen(form, input, list);
  }
  if (trigger.type === 'submit') {
    form.requestSubmit();
  } else if (document.activeElement === input) {
    input.dispatchEvent(new Event('focus'));
    // Typed before this module arrived; the keyword a results page shows is not asked again.
    if (input.value !== input.defaultValue) input.dispatchEvent(new Event('input'));
  }
}

function listen(form: HTMLFormElement, input: HTMLInputElement, list: HTMLUListElement): void {
  const listId = list.id;
  let items: Suggestion[] = [];
  let open = false;
  let active = -1;
  let lastAsked = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  let controller: AbortController | undefined;

  const showList = () => open && items.length > 0 && normalizeText(input.value).length > 0;

  /** Brings the list, the options and the combobox's ARIA in line with the state above. */
  function render() {
    const shown = showList();
    list.classList.toggle('d-none', !shown);
    input.setAttribute('aria-expanded', String(shown));
    if (shown && active >= 0) input.setAttribute('aria-activedescendant', `${listId}-${active}`);
    else input.removeAttribute('aria-activedescendant');
    list.querySelectorAll('li').forEach((option, index) => {
      const selected = index === active;
      option.setAttribute('aria-selected', String(selected));
      option.classList.toggle('active', selected);
      option.lastElementChild!.className = selected ? 'text-white-50' : 'text-secondary';
    });
  }

  function setItems(next: Suggestion[]) {
    items = next;
    list.replaceChildren(
      ...next.map((item, index) => {
        const option = document.createElement('li');
        option.id = `${listId}-${index}`;
        option.setAttribute('role', 'option');
        option.className = 'list-group-item list-group-item-action d-flex justify-content-between gap-2 small';
        const label = document.createElement('span');
        label.className = 'text-truncate';
        label.textContent = item.label;
        const kind = document.createElement('span');
        kind.textContent = kindLabel[item.kind];
        option.append(label, kind);
        option.addEventListener('mousedown', (event) => {
          // Before the input's blur closes the list.
          event.preventDefault();
          window.location.assign(item.href);
        });
        option.addEventListener('mouseenter', () => {
          active = index;
          render();
        });
        return option;
      }),
    );
  }

  input.addEventListener('input', () => {
    const cleaned = normalizeText(input.value);
    if (cleaned.length === 0) open = false;
    render();
    // A newer keyword cancels the wait and the request of the one before.
    clearTimeout(timer);
    controller?.abort();
    if (cleaned.length === 0 || cleaned === lastAsked) return;
    const current = new AbortController();
    controller = current;
    timer = setTimeout(() => {
      lastAsked = cleaned;
      fetch(`/api/search-suggest?q=${encodeURIComponent(cleaned)}`, { signal: current.signal })
        .then((response) => (response.ok ? response.json() : { data: [] }))
        .then((body: { data?: Suggestion[] }) => {
          setItems(Array.isArray(body.data) ? body.data : []);
          active = -1;
          open = true;
          render();
        })
        .catch(() => {
          // Aborted by the next key press, or offline: suggestions are optional.
        });
    }, SUGGEST_DELAY_MS);
  });

  input.addEventListener('keydown', (event) => {
    const chosen = showList() && active >= 0 ? items[active] : undefined;
    if (event.key === 'ArrowDown' && items.length > 0) {
      event.preventDefault();
      open = true;
      active = (active + 1) % items.length;
    } else if (event.key === 'ArrowUp' && items.length > 0) {
      event.preventDefault();
      open = true;
      active = active <= 0 ? items.length - 1 : active - 1;
    } else if (event.key === 'Escape') {
      open = false;
      active = -1;
    } else if (event.key === 'Enter' && chosen) {
      event.preventDefault();
      window.location.assign(chosen.href);
      return;
    } else {
      return;
    }
    render();
  });

  input.addEventListener('focus', () => {
    open = true;
    render();
  });
  input.addEventListener('blur', () =>
    setTimeout(() => {
      open = false;
      render();
    }, 150),
  );

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const cleaned = normalizeText(input.value);
    if (cleaned.length > 0) {
      window.location.assign(`/search/${encodeURIComponent(cleaned)}`);
      return;
    }
    open = false;
    render();
    // SweetAlert2 is loaded on first use only: most visitors never search for nothing.
    void import('sweetalert2').then(({ default: Swal }) =>
      Swal.fire({ icon: 'warning', title: SEARCH_EMPTY_TITLE, text: SEARCH_EMPTY_TEXT, confirmButtonText: 'ตกลง' }),
    );
  });
}
