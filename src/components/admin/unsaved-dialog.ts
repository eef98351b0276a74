/**
 * The question before one section of a page is saved while another still holds changes (UnsavedGuard):
 * saving reloads the page, so the other section's changes would be lost. SweetAlert2 is loaded on first use.
 */
export async function askSaveOneSection(saving: string, unsaved: readonly string[]): Promise<boolean> {
  const { default: Swal } = await import('sweetalert2');
  const names = unsaved.map((name) => `"${name}"`).join(', ');
  const result = await Swal.fire({
    icon: 'warning',
    title: 'มีส่วนที่ยังไม่ได้บันทึก',
    text: `${names} ยังไม่ได้บันทึก ถ้าบันทึก "${saving}" ตอนนี้ สิ่งที่แก้ใน ${names} จะหายไป`,
    showCancelButton: true,
    confirmButtonText: `บันทึก "${saving}" ต่อ`,
    cancelButtonText: 'กลับไปแก้ไข',
    focusCancel: true,
    // The page puts focus on the field left unsaved; the dialog must not move it back to the button.
    returnFocus: false,
    confirmButtonColor: '#0d6efd',
    cancelButtonColor: '#6c757d',
  });
  return result.isConfirmed;
}
