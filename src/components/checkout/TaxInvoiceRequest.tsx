import { useState, type FormEvent } from 'react';
import { postJson } from '../account/api';
import TaxInvoiceFields, { emptyTaxInvoice, type TaxInvoiceInput } from './TaxInvoiceFields';

interface Props {
  orderNo: string;
  /** Details already asked for (not yet issued), to correct them. */
  initial: TaxInvoiceInput | null;
}

/** My Purchase: ask for a full tax invoice for this order; the page reloads to show it. */
export default function TaxInvoiceRequest({ orderNo, initial }: Props) {
  const [open, setOpen] = useState(initial !== null);
  const [value, setValue] = useState<TaxInvoiceInput>(initial ?? emptyTaxInvoice);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const [sending, setSending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSending(true);
    setMessage('');
    const result = await postJson<{ tax_invoice_no: string | null }>('/api/order-tax-invoice', { no: orderNo, tax_invoice: value });
    if (result.ok) {
      window.location.reload();
      return;
    }
    setErrors(result.fields);
    setMessage(result.message);
    setSending(false);
  }

  if (!open) {
    return (
      <button type="button" className="btn btn-sm btn-outline-primary" onClick={() => setOpen(true)}>
        ขอใบกำกับภาษีเต็มรูป
      </button>
    );
  }
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="ขอใบกำกับภาษีเต็มรูป">
      <TaxInvoiceFields value={value} onChange={setValue} errors={errors} />
      {message && (
        <div className="alert alert-danger py-2 small" role="alert">
          {message}
        </div>
      )}
      <button type="submit" className="btn btn-sm btn-primary" disabled={sending}>
        {sending ? 'กำลังบันทึก…' : 'บันทึกข้อมูลใบกำกับภาษี'}
      </button>
    </form>
  );
}
