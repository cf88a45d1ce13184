// User mistakes (a bad option, an unreadable file) end the program with one clear line and exit
// code 2, never a stack trace.

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Parses a whole number option, naming the option when it is not one. */
export function intOption(name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new UsageError(`${name} expects a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ' up'}, got "${value}"`);
    }
    return n;
  };
}
