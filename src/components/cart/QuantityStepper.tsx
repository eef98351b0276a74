import { useState } from 'react';

interface Props {
  value: number;
  max: number;
  onChange: (amount: number) => void;
  /** Accessible name of the amount field, e.g. "จำนวน ลิปสติก". */
  label: string;
  id?: string;
  size?: 'sm' | 'md';
  disabled?: boolean;
}

/** Buttons `ลดจำนวน` / `เพิ่มจำนวน` around the amount (docs/design.md section 5); never below 1 or above max. */
export default function QuantityStepper({ value, max, onChange, label, id, size = 'md', disabled = false }: Props) {
  const [draft, setDraft] = useState<string | null>(null);
  const limit = Math.max(1, max);

  function commit(text: string) {
    setDraft(null);
    const parsed = Number.parseInt(text, 10);
    const amount = Number.isFinite(parsed) ? Math.min(limit, Math.max(1, parsed)) : value;
    if (amount !== value) onChange(amount);
  }

  return (
    <div className={`input-group flex-nowrap quantity-stepper${size === 'sm' ? ' input-group-sm' : ''}`}>
      <button
        type="button"
        className="btn btn-outline-secondary"
        aria-label="ลดจำนวน"
        title="ลดจำนวน"
        disabled={disabled || value <= 1}
        onClick={() => onChange(Math.max(1, value - 1))}
      >
        −
      </button>
      <input
        id={id}
        className="form-control text-center"
        type="text"
        inputMode="numeric"
        pattern="[0-9]*"
        aria-label={label}
        value={draft ?? String(value)}
        disabled={disabled}
        maxLength={4}
        onChange={(event) => setDraft(event.target.value.replace(/[^0-9]/g, ''))}
        onBlur={(event) => commit(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            commit(event.currentTarget.value);
          }
        }}
      />
      <button
        type="button"
        className="btn btn-outline-secondary"
        aria-label="เพิ่มจำนวน"
        title="เพิ่มจำนวน"
        disabled={disabled || value >= limit}
        onClick={() => onChange(Math.min(limit, value + 1))}
      >
        +
      </button>
    </div>
  );
}
