import type { BACK_IN_STOCK } from '../../lib/back-in-stock';
import { jsonCall } from '../../lib/json-call';

/**
 * The product page's `แจ้งเตือนเมื่อมีสินค้า` (BackInStock.astro, docs/decisions/220): the form sent as JSON
 * and answered in place; for a member, whether they wait already (with a cancel button), asked again
 * whenever the picker chooses another sold-out variant (`variant-change` on the block).
 */
type Words = typeof BACK_IN_STOCK;

type Answer = { subscribed?: boolean; message?: string };
const call = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => jsonCall<Answer>(method, path, body);

export function enhanceBackInStock(): void {
  const block = document.querySelector<HTMLElement>('[data-back-in-stock]');
  const form = block?.querySelector<HTMLFormElement>('[data-back-in-stock-form]');
  if (!block || !form) return;
  const words = JSON.parse(block.dataset.words || '{}') as Words;
  const variantInput = form.querySelector<HTMLInputElement>('[data-variant-code-input]')!;
  const email = form.querySelector<HTMLInputElement>('input[name="email"]');
  const submit = form.querySelector<HTMLButtonElement>('[data-back-in-stock-submit]')!;
  const done = block.querySelector<HTMLElement>('[data-back-in-stock-done]')!;
  const answer = block.querySelector<HTMLElement>('[data-back-in-stock-answer]')!;
  const cancel = block.querySelector<HTMLButtonElement>('[data-back-in-stock-cancel]')!;
  const isMember = () => document.documentElement.classList.contains('member');

  function show(text: string, subscribed: boolean, failed = false) {
    done.hidden = text === '';
    answer.textContent = text;
    answer.classList.toggle('text-danger', failed);
    cancel.hidden = !(subscribed && isMember());
    form!.hidden = subscribed;
  }

  async function refresh() {
    show('', false);
    if (!isMember() || block!.hidden) return;
    const code = variantInput.value;
    const result = await call('GET', `/api/user/back-in-stock?variant=${encodeURIComponent(code)}`);
    if (variantInput.value === code && result.ok && result.data?.subscribed) show(words.already, true);
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!isMember() && email && !email.reportValidity()) return;
    submit.disabled = true;
    const body = isMember() ? { variant: variantInput.value } : { variant: variantInput.value, email: email?.value ?? '' };
    void call('POST', '/api/back-in-stock', body).then((result) => {
      submit.disabled = false;
      if (result.ok) show(result.data?.message ?? words.subscribed, isMember());
      else show(result.message ?? 'เกิดข้อผิดพลาด กรุณาลองใหม่อีกครั้ง', false, true);
    });
  });
  cancel.addEventListener('click', () => {
    cancel.disabled = true;
    void call('DELETE', `/api/user/back-in-stock/${encodeURIComponent(variantInput.value)}`).then((result) => {
      cancel.disabled = false;
      if (result.ok) show(words.cancelled, false);
      else show(result.message ?? 'เกิดข้อผิดพลาด กรุณาลองใหม่อีกครั้ง', true, true);
    });
  });
  if (email) email.required = !isMember();
  block.addEventListener('variant-change', () => void refresh());
  void refresh();
}
