import { useEffect, useState } from 'react';

interface Props {
  expiresAt: string;
  /** What the server computed, shown before the island starts and without JavaScript. */
  initialText: string;
}

function remaining(expiresAt: string, now: number): string {
  const ms = new Date(expiresAt).getTime() - now;
  if (ms <= 0) return 'หมดเวลาชำระเงินแล้ว';
  const total = Math.floor(ms / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${hours} ชั่วโมง ${pad(minutes)} นาที ${pad(seconds)} วินาที`;
}

/** Time left to pay, ticking each second. */
export default function Countdown({ expiresAt, initialText }: Props) {
  const [text, setText] = useState(initialText);
  useEffect(() => {
    const tick = () => setText(remaining(expiresAt, Date.now()));
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [expiresAt]);
  return (
    <span className="fw-semibold text-danger" data-testid="time-left">
      {text}
    </span>
  );
}

export { remaining as timeLeftText };
