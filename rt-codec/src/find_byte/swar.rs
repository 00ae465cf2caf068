//! The portable search: eight bytes per step with the "has a zero byte"
//! bit trick, in safe code. It serves targets without a vector search and
//! the short buffers the vector search leaves to it.

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// The index of the first `needle` in `haystack`, one 64-bit word at a
/// time.
pub(super) fn find_byte(needle: u8, haystack: &[u8]) -> Option<usize> {
    let pattern = LO.wrapping_mul(u64::from(needle));
    let mut chunks = haystack.chunks_exact(8);
    let mut offset = 0;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().expect("chunks of eight"));
        let x = word ^ pattern;
        // Non-zero iff some byte of `x` is zero, i.e. some byte matched.
        // (Bytes above the first match may be flagged falsely, never
        // bytes below it, so the scan below finds the true first match.)
        if x.wrapping_sub(LO) & !x & HI != 0 {
            return chunk.iter().position(|&b| b == needle).map(|i| offset + i);
        }
        offset += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| b == needle)
        .map(|i| offset + i)
}
