import { useEffect, useState } from 'react';
import { PRODUCT_CODE_HINT, PRODUCT_CODE_PATTERN } from '../../../lib/product-rules';

interface Props {
  initial: string;
  /** The product's own code when editing (its own code is not "taken"). */
  except: string | null;
  serverError?: string;
}

/** รหัสสินค้า, checked as typed: shape here, uniqueness by the server (debounced). */
export default function CodeField({ initial, except, serverError = '' }: Props) {
  const [code, setCode] = useState(initial);
  const [state, setState] = useState<{ ok: boolean; message: string } | null>(serverError ? { ok: false, message: serverError } : null);

  useEffect(() => {
    const value = code.trim();
    if (value === '' || value === except) {
      setState(null);
      return;
    }
    if (!PRODUCT_CODE_PATTERN.test(value)) {
      setState({ ok: false, message: PRODUCT_CODE_HINT });
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      const query = new URLSearchParams({ code: value, ...(except ? { except } : {}) });
      fetch(`/api/admin/products/check-code?${query}`, { signal: controller.signal, headers: { Accept: 'application/json' } })
        .then((response) => response.json() as Promise<{ data?: { available: boolean; message: string } }>)
        .then((body) => body.data && setState({ ok: body.data.available, message: body.data.message }))
        .catch(() => {});
    }, 300);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [code, except]);

  return (
    <div>
      <label htmlFor="product-code" className="form-label">
        รหัสสินค้า
      </label>
      <input
        id="product-code"
        name="code"
        required
        maxLength={64}
        autoComplete="off"
        spellCheck={false}
        className={`form-control ${state ? (state.ok ? 'is-valid' : 'is-invalid') : ''}`}
        value={code}
        aria-describedby="product-code-feedback"
        onChange={(event) => setCode(event.target.value)}
      />
      <div id="product-code-feedback" className={state?.ok ? 'valid-feedback' : 'invalid-feedback'} aria-live="polite">
        {state?.message ?? ''}
      </div>
    </div>
  );
}
