import { useEffect, useRef, useState, type FormEvent } from 'react';
import { addressSchema, fieldErrors } from '../../lib/account-schemas';
import { formatThaiPhone } from '../../lib/phone';
import { callApi } from './api';
import Field from './Field';
import type { SavedAddress } from '../../lib/types';

export type AddressView = SavedAddress;

interface Place {
  subdistrict: string;
  district: string;
  province: string;
  postcode: string;
}

type Draft = Omit<AddressView, 'id'>;
const blank: Draft = { recipientName: '', phone: '', line1: '', subdistrict: '', district: '', province: '', postcode: '', isDefault: false };

/** Suggestions from the Thai address data set as the member types a subdistrict or a postcode. */
function usePlaceSuggestions(query: string): Place[] {
  const [state, setState] = useState<{ query: string; places: Place[] }>({ query: '', places: [] });
  useEffect(() => {
    const q = query.trim();
    if (q.length < 2) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      void callApi<Place[]>(`/api/thai-address?q=${encodeURIComponent(q)}`, 'GET').then((result) => {
        if (!cancelled) setState({ query, places: result.ok && result.data ? result.data : [] });
      });
    }, 200);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [query]);
  return state.query === query && query.trim().length >= 2 ? state.places : [];
}

function PlaceSuggestions({ places, onPick, id }: { places: Place[]; onPick: (place: Place) => void; id: string }) {
  if (places.length === 0) return null;
  return (
    <div
      className="list-group position-absolute shadow address-suggestions"
      style={{ zIndex: 1000, left: 'calc(var(--bs-gutter-x) * .5)', right: 'calc(var(--bs-gutter-x) * .5)', maxHeight: '16rem', overflowY: 'auto' }}
      role="listbox"
      id={id}
      aria-label="ที่อยู่ที่แนะนำ"
    >
      {places.map((place) => (
        <button
          type="button"
          role="option"
          aria-selected="false"
          className="list-group-item list-group-item-action py-2 small"
          key={`${place.subdistrict}|${place.district}|${place.province}|${place.postcode}`}
          // mousedown runs before the input's blur closes the list
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(place);
          }}
          onClick={() => onPick(place)}
        >
          {place.subdistrict} » {place.district} » {place.province} » {place.postcode}
        </button>
      ))}
    </div>
  );
}

interface AddressFormProps {
  initial: AddressView | null;
  onCancel: () => void;
  onSaved: () => Promise<void>;
  /** Where the form posts without JavaScript (new addresses only). */
  action: string;
  /** What a plain form post sent, and what the server said about it. */
  draft?: Partial<Draft> | undefined;
  draftErrors?: Record<string, string> | undefined;
  draftMessage?: string | undefined;
}

function AddressForm({ initial, onCancel, onSaved, action, draft, draftErrors = {}, draftMessage = '' }: AddressFormProps) {
  const [values, setValues] = useState<Draft>(initial ?? { ...blank, ...draft });
  const [errors, setErrors] = useState<Record<string, string>>(draftErrors);
  const [message, setMessage] = useState(draftMessage);
  const [busy, setBusy] = useState(false);
  const [focus, setFocus] = useState<'subdistrict' | 'postcode' | null>(null);
  const focusQuery = focus ? values[focus] : '';
  const found = usePlaceSuggestions(focusQuery);
  // Once the four parts are one of the suggestions, the list has done its job and stops covering the form.
  const picked = found.some((place) => place.subdistrict === values.subdistrict && place.district === values.district && place.province === values.province && place.postcode === values.postcode);
  const suggestions = picked ? [] : found;
  const closeOnEscape = (event: { key: string }) => {
    if (event.key === 'Escape') setFocus(null);
  };
  const firstInput = useRef<HTMLInputElement>(null);
  useEffect(() => firstInput.current?.focus(), []);

  const set = (key: keyof Draft) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [key]: event.target.value }));
  const pick = (place: Place) => {
    setValues((current) => ({ ...current, ...place }));
    setFocus(null);
    setErrors(({ subdistrict: _s, district: _d, province: _p, postcode: _c, ...rest }) => rest);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setMessage('');
    const parsed = addressSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setBusy(true);
    const result = initial
      ? await callApi<AddressView>(`/api/user/addresses/${initial.id}`, 'PUT', parsed.data)
      : await callApi<AddressView>('/api/user/addresses', 'POST', parsed.data);
    if (result.ok) {
      await onSaved();
      return;
    }
    setBusy(false);
    setErrors(result.fields);
    setMessage(result.message);
  }

  return (
    <form method="post" action={initial ? undefined : action} noValidate onSubmit={(event) => void submit(event)} className="card card-body mb-3" aria-label={initial ? 'แก้ไขที่อยู่' : 'เพิ่มที่อยู่ใหม่'}>
      <h2 className="h6 mb-3">{initial ? 'แก้ไขที่อยู่' : 'เพิ่มที่อยู่ใหม่'}</h2>
      {message && (
        <div className="alert alert-danger py-2" role="alert">
          {message}
        </div>
      )}
      <div className="row g-2">
        <Field ref={firstInput} id="address-recipient" className="col-sm-6 mb-3" label="ชื่อผู้รับ" autoComplete="name" maxLength={200} name="recipientName" value={values.recipientName} error={errors.recipientName} onChange={set('recipientName')} />
        <Field id="address-phone" className="col-sm-6 mb-3" label="เบอร์โทรศัพท์ผู้รับ" type="tel" inputMode="tel" autoComplete="tel" maxLength={20} name="phone" value={values.phone} error={errors.phone} onChange={set('phone')} />
      </div>
      <Field id="address-line1" label="ที่อยู่ (บ้านเลขที่ ถนน ซอย)" autoComplete="address-line1" maxLength={300} name="line1" value={values.line1} error={errors.line1} onChange={set('line1')} />
      <div className="row g-2">
        <Field
          id="address-subdistrict"
          className="col-sm-6 mb-3 position-relative"
          label="ตำบล/แขวง"
          autoComplete="off"
          role="combobox"
          aria-expanded={focus === 'subdistrict' && suggestions.length > 0}
          aria-controls="address-subdistrict-list"
          hint="พิมพ์ชื่อตำบล/แขวง หรือรหัสไปรษณีย์ แล้วเลือกจากรายการ"
          name="subdistrict"
          value={values.subdistrict}
          error={errors.subdistrict}
          onChange={set('subdistrict')}
          onFocus={() => setFocus('subdistrict')}
          onKeyDown={closeOnEscape}
          onBlur={() => setFocus(null)}
        >
          {focus === 'subdistrict' && <PlaceSuggestions id="address-subdistrict-list" places={suggestions} onPick={pick} />}
        </Field>
        <Field id="address-district" className="col-sm-6 mb-3" label="อำเภอ/เขต" autoComplete="off" name="district" value={values.district} error={errors.district} onChange={set('district')} />
      </div>
      <div className="row g-2">
        <Field id="address-province" className="col-sm-6 mb-3" label="จังหวัด" autoComplete="off" name="province" value={values.province} error={errors.province} onChange={set('province')} />
        <Field
          id="address-postcode"
          className="col-sm-6 mb-3 position-relative"
          label="รหัสไปรษณีย์"
          inputMode="numeric"
          autoComplete="off"
          role="combobox"
          aria-expanded={focus === 'postcode' && suggestions.length > 0}
          aria-controls="address-postcode-list"
          maxLength={5}
          name="postcode"
          value={values.postcode}
          error={errors.postcode}
          onChange={set('postcode')}
          onFocus={() => setFocus('postcode')}
          onKeyDown={closeOnEscape}
          onBlur={() => setFocus(null)}
        >
          {focus === 'postcode' && <PlaceSuggestions id="address-postcode-list" places={suggestions} onPick={pick} />}
        </Field>
      </div>
      <div className="form-check mb-3">
        <input
          id="address-default"
          className="form-check-input"
          type="checkbox"
          name="isDefault"
          value="true"
          checked={values.isDefault}
          onChange={(event) => setValues((current) => ({ ...current, isDefault: event.target.checked }))}
        />
        <label className="form-check-label" htmlFor="address-default">
          ตั้งเป็นที่อยู่เริ่มต้น
        </label>
      </div>
      <div className="d-flex gap-2">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          บันทึกที่อยู่
        </button>
        <a
          href={action}
          role="button"
          className="btn btn-outline-secondary"
          onClick={(event) => {
            event.preventDefault();
            onCancel();
          }}
        >
          ยกเลิก
        </a>
      </div>
    </form>
  );
}

interface AddressBookProps {
  initial: AddressView[];
  returnTo?: string | null;
  /** This page's path (with its `next`): the add form posts here, and works before JavaScript. */
  action?: string;
  /** A new-address form the server rendered open (`?new=1`, or a refused plain post). */
  draft?: Partial<Draft> | null;
  draftErrors?: Record<string, string>;
  draftMessage?: string;
}

export default function AddressBook({ initial, returnTo = null, action = '/user/account/address', draft = null, draftErrors, draftMessage }: AddressBookProps) {
  const [addresses, setAddresses] = useState(initial);
  const [editing, setEditing] = useState<AddressView | 'new' | null>(draft ? 'new' : null);
  const [error, setError] = useState('');

  async function reload() {
    const result = await callApi<AddressView[]>('/api/user/addresses', 'GET');
    if (result.ok && result.data) setAddresses(result.data);
    else setError(result.message);
    setEditing(null);
  }

  async function makeDefault(address: AddressView) {
    const result = await callApi(`/api/user/addresses/${address.id}/default`, 'POST', {});
    if (!result.ok) setError(result.message);
    await reload();
  }

  async function remove(address: AddressView) {
    const { default: Swal } = await import('sweetalert2');
    const answer = await Swal.fire({
      icon: 'warning',
      title: 'คุณแน่ใจไหม ?',
      text: 'คุณจะไม่สามารถย้อนกลับได้ !',
      showCancelButton: true,
      confirmButtonText: 'ตกลง',
      cancelButtonText: 'ยกเลิก',
    });
    if (!answer.isConfirmed) return;
    const result = await callApi(`/api/user/addresses/${address.id}`, 'DELETE');
    if (!result.ok) setError(result.message);
    await reload();
  }

  return (
    <div>
      {error && (
        <div className="alert alert-danger py-2" role="alert">
          {error}
        </div>
      )}
      {returnTo && (
        <a className="d-inline-block mb-3 me-3" href={returnTo}>
          ← กลับไปหน้าสั่งซื้อ
        </a>
      )}
      {editing === null && (
        // A link the island turns into a button: without JavaScript it opens the form from the server.
        <a
          href={`${action}${action.includes('?') ? '&' : '?'}new=1`}
          role="button"
          className="btn btn-success mb-3"
          onClick={(event) => {
            event.preventDefault();
            setEditing('new');
          }}
        >
          + เพิ่มที่อยู่ใหม่
        </a>
      )}
      {editing !== null && (
        <AddressForm
          key={editing === 'new' ? 'new' : editing.id}
          initial={editing === 'new' ? null : editing}
          action={action}
          draft={editing === 'new' ? (draft ?? undefined) : undefined}
          draftErrors={editing === 'new' ? draftErrors : undefined}
          draftMessage={editing === 'new' ? draftMessage : undefined}
          onCancel={() => setEditing(null)}
          onSaved={editing === 'new' && returnTo ? async () => window.location.assign(returnTo) : reload}
        />
      )}
      {addresses.length === 0 && editing === null && <p className="text-secondary">ยังไม่มีที่อยู่ในสมุดที่อยู่ของคุณ</p>}
      <ul className="list-unstyled d-grid gap-3" aria-label="สมุดที่อยู่">
        {addresses.map((address) => (
          <li key={address.id} className={`card${address.isDefault ? ' border-success' : ''}`} data-address-id={address.id}>
            <div className="card-body d-flex flex-column flex-sm-row gap-2 justify-content-between">
              <div>
                <div className="fw-semibold">
                  {address.recipientName} <span className="text-secondary fw-normal">| {formatThaiPhone(address.phone)}</span>
                  {address.isDefault && <span className="badge text-bg-success ms-2">ค่าเริ่มต้น</span>}
                </div>
                <div>{address.line1}</div>
                <div>
                  {address.subdistrict} {address.district} {address.province} {address.postcode}
                </div>
              </div>
              <div className="d-flex flex-sm-column gap-2 align-items-start align-items-sm-end flex-shrink-0">
                <div className="d-flex gap-2">
                  <button type="button" className="btn btn-link btn-sm p-0" onClick={() => setEditing(address)}>
                    แก้ไข
                  </button>
                  <button type="button" className="btn btn-link btn-sm p-0 text-danger" onClick={() => void remove(address)}>
                    ลบ
                  </button>
                </div>
                {!address.isDefault && (
                  <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => void makeDefault(address)}>
                    ตั้งเป็นค่าเริ่มต้น
                  </button>
                )}
              </div>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
