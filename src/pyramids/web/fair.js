// Provably fair deals, checked in the browser: does what a finished game reveals hash to
// the commitment its room published when it was created?
//
// The byte layouts are the server's (src/pyramids/server/fair.py, docs/server.md), one per
// scheme, named by the reveal's `scheme`:
//   keyed, a room dealt from its secret (no seed):
//     SHA-256( "pyramids-deal-v2" 0x00 | secret, 32 bytes )
//   seeded, a room whose creator chose the seed:
//     SHA-256( "pyramids-deal-v1" 0x00 | seed as 8 bytes big-endian | secret, 32 bytes )
// Why a fallback SHA-256: crypto.subtle exists only in secure contexts (https, localhost),
// and a game on a LAN address over plain http must be checkable too.
//
// Use (replay screen):
//   import { rememberCommitment, checkDeal } from "./fair.js";
//   rememberCommitment(roomId, summary.commitment);       // whenever a room is shown
//   const verdict = await checkDeal(roomId, replay);       // replay: GET .../replay
//   // verdict.status: "fair" | "mismatch" | "changed" | "unchecked"; verdict.reason: English

const PREFIX = "pyramids-deal-v1\u0000";
const KEYED_SCHEME = "pyramids-deal-v2";
const STORE = "pyramids.commitments";

/** The commitment of `seed` (number < 2**53, decimal string or BigInt) under `secretHex`. */
export async function commitmentOf(seed, secretHex) {
  const prefix = new TextEncoder().encode(PREFIX);
  const secret = hexBytes(secretHex);
  if (secret.length !== 32) throw new Error("a secret is 32 bytes of hex");
  let n = BigInt(seed);
  if (n < 0n || n >= 1n << 64n) throw new Error("a seed is 0 to 2**64 - 1");
  const message = new Uint8Array(prefix.length + 8 + 32);
  message.set(prefix, 0);
  for (let i = 7; i >= 0; i--) { message[prefix.length + i] = Number(n & 0xffn); n >>= 8n; }
  message.set(secret, prefix.length + 8);
  return toHex(await sha256(message));
}

/** The commitment of a keyed deal: the stream of `secretHex` (no seed). */
export async function keyedCommitmentOf(secretHex) {
  const prefix = new TextEncoder().encode(`${KEYED_SCHEME}\u0000`);
  const secret = hexBytes(secretHex);
  if (secret.length !== 32) throw new Error("a secret is 32 bytes of hex");
  const message = new Uint8Array(prefix.length + 32);
  message.set(prefix, 0);
  message.set(secret, prefix.length);
  return toHex(await sha256(message));
}

/** Keep the first commitment this browser saw for a room (a later one must equal it). */
export function rememberCommitment(roomId, commitment) {
  if (!roomId || typeof commitment !== "string") return;
  try {
    const seen = JSON.parse(localStorage.getItem(STORE) || "{}");
    if (!(roomId in seen)) {
      seen[roomId] = commitment;
      const ids = Object.keys(seen);
      for (const old of ids.slice(0, Math.max(0, ids.length - 500))) delete seen[old];
      localStorage.setItem(STORE, JSON.stringify(seen));
    }
  } catch { /* no storage (private mode): the check below still runs on what the server says */ }
}

/** The commitment this browser saw for a room before, or null. */
export function rememberedCommitment(roomId) {
  try { return JSON.parse(localStorage.getItem(STORE) || "{}")[roomId] ?? null; } catch { return null; }
}

/**
 * Check a finished game: `info` holds `commitment` and `reveal` ({secret, scheme} for a keyed
 * deal, {seed, secret, scheme} for a seeded one), as in the room summary, the replay and the
 * record. Returns {status, reason}:
 * "fair" (the reveal hashes to the commitment, which is the one seen before if any),
 * "mismatch" (it does not), "changed" (the commitment differs from the one seen at the start),
 * "unchecked" (the game is running, or the room predates commitments).
 */
export async function checkDeal(roomId, info) {
  const commitment = info && info.commitment;
  const reveal = info && info.reveal;
  if (typeof commitment !== "string" || !reveal) {
    return { status: "unchecked", reason: "no commitment to check (a game still running, or an older room)" };
  }
  const before = rememberedCommitment(roomId);
  if (before !== null && before !== commitment) {
    return { status: "changed", reason: "the commitment is not the one this browser saw when the game began" };
  }
  const keyed = reveal.scheme === KEYED_SCHEME;
  let computed;
  try {
    computed = keyed ? await keyedCommitmentOf(reveal.secret) : await commitmentOf(reveal.seed, reveal.secret);
  } catch (e) {
    return { status: "mismatch", reason: `the reveal is malformed: ${e.message}` };
  }
  if (computed !== commitment.toLowerCase()) {
    return { status: "mismatch", reason: "the revealed deal does not hash to the commitment" };
  }
  const which = keyed ? "the deal" : `the deal (seed ${reveal.seed})`;
  return { status: "fair", reason: `${which} was fixed before the game began` };
}

// -- bytes and SHA-256 ---------------------------------------------------------------------

function hexBytes(hex) {
  if (typeof hex !== "string" || !/^([0-9a-fA-F]{2})*$/.test(hex)) throw new Error("not hex");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** SHA-256 of `bytes`: the browser's own where it offers one, else `sha256Fallback`. */
export async function sha256(bytes) {
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (subtle) return new Uint8Array(await subtle.digest("SHA-256", bytes));
  return sha256Fallback(bytes);
}

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** A plain SHA-256 (FIPS 180-4), for pages without crypto.subtle. */
export function sha256Fallback(bytes) {
  const length = bytes.length;
  const padded = new Uint8Array(((length + 9 + 63) >> 6) << 6);
  padded.set(bytes);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
  view.setUint32(padded.length - 4, (length << 3) >>> 0);
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let at = 0; at < padded.length; at += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(at + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, k] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      k = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += k;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(4 * i, h[i]);
  return out;
}
