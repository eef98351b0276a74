import type { InputHTMLAttributes, ReactNode, Ref } from 'react';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  id: string;
  label: string;
  /** Thai message shown under the field; marks it invalid. */
  error?: string | undefined;
  /** Marks the field valid (green) once it was checked and has no error. */
  valid?: boolean;
  hint?: ReactNode;
  children?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled Bootstrap input with the valid / invalid looks and the message under it. */
export default function Field({ id, label, error, valid = false, hint, children, className, ref, ...input }: Props) {
  const invalid = Boolean(error);
  const describedBy = [invalid ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className ?? 'mb-3'}>
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <input
        ref={ref}
        id={id}
        className={`form-control${invalid ? ' is-invalid' : valid ? ' is-valid' : ''}`}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        {...input}
      />
      {children}
      {invalid && (
        <div id={`${id}-error`} className="invalid-feedback d-block">
          {error}
        </div>
      )}
      {hint && !invalid && (
        <div id={`${id}-hint`} className="form-text">
          {hint}
        </div>
      )}
    </div>
  );
}
