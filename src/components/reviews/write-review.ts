/**
 * `เขียนรีวิว` on the cached product page (ProductReviews.astro): a member (html.member) asks once whether
 * they have a delivered line of this product waiting for a review, and the link then opens its form.
 */
export function showWriteReview(): void {
  const link = document.querySelector<HTMLAnchorElement>('[data-write-review]');
  if (!link || !document.documentElement.classList.contains('member')) return;
  void fetch(`/api/user/reviews/reviewable?product=${encodeURIComponent(link.dataset.writeReview ?? '')}`, { credentials: 'same-origin' })
    .then((response) => (response.ok ? (response.json() as Promise<{ data?: { line: number }[] }>) : null))
    .then((answer) => {
      const line = answer?.data?.[0]?.line;
      if (!line) return;
      link.href = `/user/reviews/new?line=${line}`;
      link.hidden = false;
    })
    .catch(() => undefined);
}
