// A small seeded generator (SplitMix64 on BigInt) for client-side scrambles (Tower of Hanoi),
// so a seed gives the same position on every browser.
export function rng(seed) {
  let state = BigInt.asUintN(64, BigInt(seed));
  const next = () => {
    state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
    let z = state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return z ^ (z >> 31n);
  };
  // Uniform integer in [0, n) (rejection sampling: no modulo bias).
  return (n) => {
    const N = BigInt(n);
    const limit = (1n << 64n) - ((1n << 64n) % N);
    for (;;) {
      const x = next();
      if (x < limit) return Number(x % N);
    }
  };
}
