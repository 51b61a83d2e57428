// One multiplier format ("1.0×", "0.8×", "1.27×"), the twin of specreplay/multiplier.py: round to hundredths half
// away from zero on the same float arithmetic, so the browser and the pages print the same text
// (assets/multiplier_cases.json: the cases both test suites read).
export const MISSING = "—";

export function times(v, missing = MISSING) {
  if (v === null || v === undefined) return missing;
  const hundredths = Math.floor(Math.abs(v) * 100 + 0.5);
  const sign = v < 0 && hundredths ? "-" : "";
  const whole = Math.floor(hundredths / 100);
  const decimals = String(hundredths % 100).padStart(2, "0").replace(/0+$/, "") || "0";
  return `${sign}${whole}.${decimals}×`;
}
