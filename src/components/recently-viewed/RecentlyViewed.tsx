import { useHydrated } from '../../lib/use-hydrated';
import { useStore } from '../../lib/use-store';
import { bahtToSatang, formatBaht } from '../../lib/money';
import { $recentlyViewed, clearRecentlyViewed } from '../../stores/recently-viewed';

interface Props {
  /** The product of the page this sits on, not shown among the others. */
  exclude?: string | undefined;
}

/**
 * `สินค้าที่ดูล่าสุด`: the products this browser viewed last (docs/decisions/210), from a store in
 * localStorage. The server renders only an empty box (the cached product page is the same for everyone
 * and crawlers find no list); the row appears once hydrated. The box is there for `client:visible`,
 * which watches the island's children.
 */
export default function RecentlyViewed({ exclude }: Props) {
  const hydrated = useHydrated();
  const viewed = useStore($recentlyViewed);
  const others = hydrated ? viewed.filter((item) => item.code !== exclude) : [];
  return (
    <div className="recently-viewed-slot">
      {others.length > 0 && (
        <section className="mt-4" aria-labelledby="recently-viewed-heading">
          <div className="d-flex align-items-baseline justify-content-between gap-2 mb-2">
            <h2 id="recently-viewed-heading" className="h5 mb-0">
              สินค้าที่ดูล่าสุด
            </h2>
            <button type="button" className="btn btn-link btn-sm p-0" onClick={clearRecentlyViewed}>
              ล้างประวัติการดู
            </button>
          </div>
          <ul className="list-unstyled d-flex gap-2 mb-0 recently-viewed-row">
            {others.map((item) => (
              <li key={item.code} className="card border-0 shadow-sm recently-viewed-card">
                <a href={`/product/${encodeURIComponent(item.code)}`} className="text-reset text-decoration-none d-block p-2">
                  <img
                    src={item.image ?? '/images/placeholder.svg'}
                    alt=""
                    width="120"
                    height="120"
                    loading="lazy"
                    decoding="async"
                    className="rounded-2 w-100 h-auto recently-viewed-img"
                  />
                  <span className="d-block small recently-viewed-name">{item.name}</span>
                  <span className="d-block small text-price">{formatBaht(bahtToSatang(item.price))}</span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
