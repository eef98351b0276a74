import { useEffect, useRef, type ChangeEvent, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

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
  const local = useRef<HTMLInputElement | null>(null);
  const { onChange, value } = input;

  // On a slow phone a member may type before the island takes over; that text is in the DOM but not in
  // React's state and would be wiped by the next render. Adopt it once, at mount.
  useEffect(() => {
    const node = local.current;
    if (node && onChange && node.type !== 'checkbox' && node.value !== String(value ?? '')) {
      onChange({ target: node, currentTarget: node } as unknown as ChangeEvent<HTMLInputElement>);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the first render can be behind the DOM
  }, []);

  const invalid = Boolean(error);
  const describedBy = [invalid ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className ?? 'mb-3'}>
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <input
        ref={(node) => {
          local.current = node;
          if (typeof ref === 'function') ref(node);
          else if (ref) ref.current = node;
        }}
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
