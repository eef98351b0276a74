import Swal from 'sweetalert2';

/**
 * The one question before money is confirmed, with the amount in it, so the person reads the number
 * once more (docs/decisions/175-slip-review-before-money.md). Loaded on the first confirmation only.
 */
export async function askConfirmPayment(question: string, detail: string): Promise<boolean> {
  const result = await Swal.fire({
    icon: 'question',
    title: question,
    text: detail,
    showCancelButton: true,
    confirmButtonText: 'ยืนยัน ได้รับเงินแล้ว',
    cancelButtonText: 'ยกเลิก',
    confirmButtonColor: '#198754',
    cancelButtonColor: '#6c757d',
    focusCancel: true,
    showClass: { popup: '', backdrop: 'swal2-backdrop-show', icon: '' },
    hideClass: { popup: '', backdrop: '', icon: '' },
  });
  return result.isConfirmed;
}
