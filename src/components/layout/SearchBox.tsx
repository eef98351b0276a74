import { useState } from 'react';
import { normalizeText } from '../../lib/thai-text';

interface Props {
  initialKeyword?: string;
  id?: string;
}

export const SEARCH_EMPTY_TITLE = 'แจ้งเตือน';
export const SEARCH_EMPTY_TEXT = 'กรุณาป้อนข้อมูลเพื่อค้นหา';

/** Navbar search. Without JavaScript the form still works as a plain GET to /search. */
export default function SearchBox({ initialKeyword = '', id = 'navbar-search' }: Props) {
  const [keyword, setKeyword] = useState(initialKeyword);

  async function search() {
    const cleaned = normalizeText(keyword);
    if (cleaned.length === 0) {
      const { default: Swal } = await import('sweetalert2');
      await Swal.fire({ icon: 'warning', title: SEARCH_EMPTY_TITLE, text: SEARCH_EMPTY_TEXT, confirmButtonText: 'ตกลง' });
      return;
    }
    window.location.assign(`/search/${encodeURIComponent(cleaned)}`);
  }

  return (
    <form className="d-flex flex-grow-1" role="search" action="/search" method="get" onSubmit={(event) => {
        event.preventDefault();
        void search();
      }}>
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
          value={keyword}
          onChange={(event) => setKeyword(event.target.value)}
        />
        <button className="btn btn-warning" type="submit" aria-label="ค้นหา" title="ค้นหา">
          <svg width="18" height="18" viewBox="0 0 16 16" aria-hidden="true" fill="currentColor">
            <path d="M11.742 10.344a6.5 6.5 0 1 0-1.397 1.398l3.85 3.85a1 1 0 0 0 1.415-1.414l-3.85-3.85zM12 6.5a5.5 5.5 0 1 1-11 0 5.5 5.5 0 0 1 11 0" />
          </svg>
        </button>
      </div>
    </form>
  );
}
