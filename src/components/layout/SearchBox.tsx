import { useEffect, useId, useRef, useState } from 'react';
import { normalizeText } from '../../lib/thai-text';

interface Props {
  initialKeyword?: string;
  id?: string;
}

interface Suggestion {
  kind: 'product' | 'category' | 'brand';
  label: string;
  href: string;
}

export const SEARCH_EMPTY_TITLE = 'แจ้งเตือน';
export const SEARCH_EMPTY_TEXT = 'กรุณาป้อนข้อมูลเพื่อค้นหา';
/** Wait this long after the last key before asking for suggestions. */
const SUGGEST_DELAY_MS = 250;
const kindLabel: Record<Suggestion['kind'], string> = { product: 'สินค้า', category: 'ประเภทสินค้า', brand: 'แบรนด์' };

/**
 * Navbar search. Without JavaScript the form still works as a plain GET to /search (which redirects
 * to /search/{keyword}). With it: the empty-keyword alert, and suggestions as you type (arrow keys,
 * Enter, Escape), following the ARIA combobox pattern.
 */
export default function SearchBox({ initialKeyword = '', id = 'navbar-search' }: Props) {
  const [keyword, setKeyword] = useState(initialKeyword);
  const [items, setItems] = useState<Suggestion[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listId = useId();
  const lastAsked = useRef('');

  useEffect(() => {
    const cleaned = normalizeText(keyword);
    if (cleaned.length === 0 || cleaned === lastAsked.current) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      lastAsked.current = cleaned;
      fetch(`/api/search-suggest?q=${encodeURIComponent(cleaned)}`, { signal: controller.signal })
        .then((response) => (response.ok ? response.json() : { data: [] }))
        .then((body: { data?: Suggestion[] }) => {
          setItems(Array.isArray(body.data) ? body.data : []);
          setActive(-1);
          setOpen(true);
        })
        .catch(() => {
          // Aborted by the next key press, or offline: suggestions are optional.
        });
    }, SUGGEST_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [keyword]);

  async function search() {
    const cleaned = normalizeText(keyword);
    if (cleaned.length === 0) {
      setOpen(false);
      const { default: Swal } = await import('sweetalert2');
      await Swal.fire({ icon: 'warning', title: SEARCH_EMPTY_TITLE, text: SEARCH_EMPTY_TEXT, confirmButtonText: 'ตกลง' });
      return;
    }
    window.location.assign(`/search/${encodeURIComponent(cleaned)}`);
  }

  const showList = open && items.length > 0 && normalizeText(keyword).length > 0;

  function onKeyDown(event: React.KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' && items.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((index) => (index + 1) % items.length);
    } else if (event.key === 'ArrowUp' && items.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((index) => (index <= 0 ? items.length - 1 : index - 1));
    } else if (event.key === 'Escape') {
      setOpen(false);
      setActive(-1);
    } else if (event.key === 'Enter' && showList && active >= 0 && items[active]) {
      event.preventDefault();
      window.location.assign(items[active].href);
    }
  }

  return (
    <form
      className="d-flex flex-grow-1 position-relative"
      role="search"
      action="/search"
      method="get"
      onSubmit={(event) => {
        event.preventDefault();
        void search();
      }}
    >
      <div className="input-group">
        <input
          id={id}
          className="form-control"
          type="search"
          name="q"
          placeholder="ค้นหาสินค้า"
          aria-label="ค้นหาสินค้า"
          autoComplete="off"
          maxLength={100}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={showList}
          aria-controls={listId}
          aria-activedescendant={showList && active >= 0 ? `${listId}-${active}` : undefined}
          value={keyword}
          onChange={(event) => {
            setKeyword(event.target.value);
            if (normalizeText(event.target.value).length === 0) setOpen(false);
          }}
          onKeyDown={onKeyDown}
          onFocus={() => setOpen(true)}
          onBlur={() => setTimeout(() => setOpen(false), 150)}
        />
        <button className="btn btn-warning" type="submit" aria-label="ค้นหา" title="ค้นหา">
          <svg width="18" height="18" viewBox="0 0 16 16" aria-hidden="true" fill="currentColor">
            <path d="M11.742 10.344a6.5 6.5 0 1 0-1.397 1.398l3.85 3.85a1 1 0 0 0 1.415-1.414l-3.85-3.85zM12 6.5a5.5 5.5 0 1 1-11 0 5.5 5.5 0 0 1 11 0" />
          </svg>
        </button>
      </div>
      <ul
        id={listId}
        role="listbox"
        aria-label="คำแนะนำการค้นหา"
        className={`list-group position-absolute top-100 start-0 w-100 shadow search-suggestions${showList ? '' : ' d-none'}`}
      >
        {items.map((item, index) => (
          <li
            key={`${item.kind}-${item.href}`}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className={`list-group-item list-group-item-action d-flex justify-content-between gap-2 small${index === active ? ' active' : ''}`}
            onMouseDown={(event) => {
              // Before the input's blur closes the list.
              event.preventDefault();
              window.location.assign(item.href);
            }}
            onMouseEnter={() => setActive(index)}
          >
            <span className="text-truncate">{item.label}</span>
            <span className={index === active ? 'text-white-50' : 'text-secondary'}>{kindLabel[item.kind]}</span>
          </li>
        ))}
      </ul>
    </form>
  );
}
