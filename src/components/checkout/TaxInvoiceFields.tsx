// Rendered only in the browser (after a click in checkout and My Purchase), so its ids never meet a server render (docs/decisions/151).
// eslint-disable-next-line no-restricted-imports
import { useId } from 'react';

/** The buyer's details for a full tax invoice, as the API takes them (`tax_invoice`). */
export interface TaxInvoiceInput {
  name: string;
  address: string;
  tax_id: string;
  branch_type: 'head_office' | 'branch';
  branch_no: string;
}

export const emptyTaxInvoice: TaxInvoiceInput = { name: '', address: '', tax_id: '', branch_type: 'head_office', branch_no: '' };

interface Props {
  value: TaxInvoiceInput;
  onChange: (value: TaxInvoiceInput) => void;
  /** Field messages from the server (`tax_invoice.name` …). */
  errors: Record<string, string>;
}

/** Company name, address, 13-digit tax id and head office or branch: shared by checkout and My Purchase. */
export default function TaxInvoiceFields({ value, onChange, errors }: Props) {
  const id = useId();
  const set = (patch: Partial<TaxInvoiceInput>) => onChange({ ...value, ...patch });
  const error = (key: string) => errors[`tax_invoice.${key}`] ?? errors[key] ?? '';
  const field = (key: keyof TaxInvoiceInput, label: string, input: React.ReactNode) => (
    <div className="mb-2">
      <label className="form-label small mb-1" htmlFor={`${id}-${key}`}>
        {label}
      </label>
      {input}
      {error(key) && (
        <div className="invalid-feedback d-block" id={`${id}-${key}-error`}>
          {error(key)}
        </div>
      )}
    </div>
  );
  const invalid = (key: string) => (error(key) ? 'form-control is-invalid' : 'form-control');
  return (
    <fieldset className="tax-invoice-fields">
      {field(
        'name',
        'ชื่อบริษัท / ชื่อผู้ซื้อ',
        <input id={`${id}-name`} className={invalid('name')} value={value.name} maxLength={200} autoComplete="organization" onChange={(event) => set({ name: event.target.value })} />,
      )}
      {field(
        'address',
        'ที่อยู่ตามทะเบียน',
        <textarea id={`${id}-address`} className={invalid('address')} rows={2} value={value.address} maxLength={500} onChange={(event) => set({ address: event.target.value })} />,
      )}
      {field(
        'tax_id',
        'เลขประจำตัวผู้เสียภาษี (13 หลัก)',
        <input id={`${id}-tax_id`} className={invalid('tax_id')} value={value.tax_id} inputMode="numeric" maxLength={17} onChange={(event) => set({ tax_id: event.target.value })} />,
      )}
      <div className="d-flex flex-wrap gap-3 align-items-center mb-2" role="radiogroup" aria-label="สำนักงานใหญ่หรือสาขา">
        <div className="form-check">
          <input className="form-check-input" type="radio" id={`${id}-head`} checked={value.branch_type === 'head_office'} onChange={() => set({ branch_type: 'head_office' })} />
          <label className="form-check-label" htmlFor={`${id}-head`}>
            สำนักงานใหญ่
          </label>
        </div>
        <div className="form-check">
          <input className="form-check-input" type="radio" id={`${id}-branch`} checked={value.branch_type === 'branch'} onChange={() => set({ branch_type: 'branch' })} />
          <label className="form-check-label" htmlFor={`${id}-branch`}>
            สาขา
          </label>
        </div>
        {value.branch_type === 'branch' && (
          <input
            className={`${invalid('branch_no')} w-auto`}
            aria-label="เลขที่สาขา"
            placeholder="เลขที่สาขา เช่น 00001"
            inputMode="numeric"
            maxLength={5}
            value={value.branch_no}
            onChange={(event) => set({ branch_no: event.target.value })}
          />
        )}
      </div>
      {error('branch_no') && <div className="invalid-feedback d-block">{error('branch_no')}</div>}
    </fieldset>
  );
}
