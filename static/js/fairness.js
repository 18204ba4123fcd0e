// Provably fair dice, checked in the browser: the revealed seed and salt must hash to the
// commitment published at launch, and every number the game drew (and every die its log shows)
// must be what the seed's splitmix64 stream gives. Mirrors apps/games/dicestream.py exactly (HeroQuest's
// red and combat dice, Legend of Zagor's d10).

const MASK64 = (1n << 64n) - 1n;
const GOLDEN = 0x9e3779b97f4a7c15n;
export const COMBAT_FACES = ["skull", "skull", "skull", "white_shield", "white_shield", "black_shield"];

/** Advance a splitmix64 state: [new state, 64-bit output]. */
export function nextU64(state) {
  const s = (state + GOLDEN) & MASK64;
  let z = s;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return [s, z ^ (z >> 31n)];
}

/** The dice stream of a game seed (a decimal string: seeds do not fit a JS number). */
export class DiceStream {
  constructor(seed) {
    this.state = nextU64(BigInt.asUintN(64, BigInt(seed)))[0];
  }

  /** A uniform int in [0, n), rejecting the biased tail as `Dice.below` does. */
  below(n) {
    const big = BigInt(n);
    const limit = MASK64 + 1n - ((MASK64 + 1n) % big);
    for (;;) {
      const [state, value] = nextU64(this.state);
      this.state = state;
      if (value < limit) return Number(value % big);
    }
  }
}

export async function sha256Hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The dice a step's log entries show, in order: HeroQuest's red values and combat faces, Legend
 * of Zagor's d10 values (a roll with `values` shows numbers, one with `faces` shows faces).
 */
export function shownDice(entries) {
  const out = [];
  for (const entry of entries) {
    for (const roll of entry.dice ?? []) out.push(...(roll.values ?? roll.faces ?? []));
  }
  return out;
}

/**
 * How a draw shows in the log, or null for a draw no die shows (shuffles, choices): a red die or
 * a d10 as result + 1, a combat die as its face.
 */
export function shownDraw(purpose, result) {
  if (purpose === "red" || purpose === "d10") return result + 1;
  if (purpose === "combat") return COMBAT_FACES[result];
  return null;
}

/**
 * Check a whole replay: `fairness` {commitment, seed, salt} and `steps` [{step, draws, entries}].
 * Resolves to {ok, draws, dice} or {ok: false, step, problem}.
 */
export async function verifyReplay(fairness, steps) {
  if (!fairness?.revealed || !fairness.commitment)
    return { ok: false, step: null, problem: "This game has no sealed seed to check against." };
  if ((await sha256Hex(`${fairness.salt}:${fairness.seed}`)) !== fairness.commitment) {
    return { ok: false, step: null, problem: "The seed and salt do not hash to the commitment published at launch." };
  }
  const stream = new DiceStream(fairness.seed);
  let draws = 0;
  let dice = 0;
  for (const step of steps) {
    const rolled = [];
    for (const [purpose, n, result] of step.draws) {
      const expected = stream.below(n);
      if (expected !== result) {
        return { ok: false, step: step.step, problem: `Step ${step.step}: a ${purpose} draw gave ${result}, the seed gives ${expected}.` };
      }
      draws += 1;
      const shown = shownDraw(purpose, result);
      if (shown !== null) rolled.push(shown);
    }
    const shown = shownDice(step.entries);
    const same = shown.length === rolled.length && shown.every((die, i) => die === rolled[i]);
    if (!same) {
      return {
        ok: false,
        step: step.step,
        problem: `Step ${step.step}: the log shows ${shown.join(", ") || "no dice"}, the seed rolled ${rolled.join(", ") || "none"}.`,
      };
    }
    dice += shown.length;
  }
  return { ok: true, draws, dice };
}
