//! Snappy raw-format encoder variants (bench).
pub fn max_compress_len(n: usize) -> usize {
    32 + n + n / 6
}

const BLOCK: usize = 1 << 16;
const MARGIN: usize = 16;

#[inline(always)]
fn load32(s: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(s[i..i + 4].try_into().unwrap())
}
#[inline(always)]
fn load64(s: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(s[i..i + 8].try_into().unwrap())
}

pub struct Enc {
    table: Vec<u16>,
}
impl Enc {
    pub fn new() -> Self {
        Enc { table: vec![0; 1 << 16] }
    }
}

#[inline(always)]
fn hash<const HB: u32>(x: u64, shift: u32) -> usize {
    if HB > 4 {
        ((x << (64 - 8 * HB)).wrapping_mul(0x9E37_79B1_85EB_CA87) >> shift) as usize
    } else {
        ((x as u32).wrapping_mul(0x1E35_A7BD) >> (shift - 32)) as usize
    }
}

fn write_varint(out: &mut [u8], mut v: usize) -> usize {
    let mut i = 0;
    while v >= 0x80 {
        out[i] = v as u8 | 0x80;
        v >>= 7;
        i += 1;
    }
    out[i] = v as u8;
    i + 1
}

#[inline(always)]
fn emit_literal(src: &[u8], start: usize, end: usize, out: &mut [u8], mut op: usize) -> usize {
    let len = end - start;
    let n = len - 1;
    if n < 60 {
        out[op] = (n as u8) << 2;
        op += 1;
        if len <= 16 && start + 16 <= src.len() && op + 16 <= out.len() {
            out[op..op + 16].copy_from_slice(&src[start..start + 16]);
            return op + len;
        }
    } else if n < 256 {
        out[op] = 60 << 2;
        out[op + 1] = n as u8;
        op += 2;
    } else {
        out[op] = 61 << 2;
        out[op + 1] = n as u8;
        out[op + 2] = (n >> 8) as u8;
        op += 3;
    }
    out[op..op + len].copy_from_slice(&src[start..end]);
    op + len
}

#[inline(always)]
fn emit_copy2(out: &mut [u8], op: usize, offset: usize, len: usize) -> usize {
    out[op] = (((len - 1) as u8) << 2) | 2;
    out[op + 1] = offset as u8;
    out[op + 2] = (offset >> 8) as u8;
    op + 3
}

#[inline(always)]
fn emit_copy(out: &mut [u8], mut op: usize, offset: usize, mut len: usize) -> usize {
    if len < 12 && offset < 2048 {
        out[op] = (((offset >> 8) as u8) << 5) | (((len - 4) as u8) << 2) | 1;
        out[op + 1] = offset as u8;
        return op + 2;
    }
    while len >= 68 {
        op = emit_copy2(out, op, offset, 64);
        len -= 64;
    }
    if len > 64 {
        op = emit_copy2(out, op, offset, 60);
        len -= 60;
    }
    if len < 12 && offset < 2048 {
        out[op] = (((offset >> 8) as u8) << 5) | (((len - 4) as u8) << 2) | 1;
        out[op + 1] = offset as u8;
        op + 2
    } else {
        emit_copy2(out, op, offset, len)
    }
}

/// Length of the common prefix of src[a..] and src[b..] (b > a), up to src.len().
#[inline(always)]
fn match_len(src: &[u8], mut a: usize, mut b: usize) -> usize {
    let start = b;
    while b + 8 <= src.len() {
        let x = load64(src, a) ^ load64(src, b);
        if x != 0 {
            return b - start + (x.trailing_zeros() / 8) as usize;
        }
        a += 8;
        b += 8;
    }
    while b < src.len() && src[a] == src[b] {
        a += 1;
        b += 1;
    }
    b - start
}

impl Enc {
    pub fn compress<const H6: u32, const SKIP_SHIFT: u32, const BITS: u32>(
        &mut self,
        input: &[u8],
        out: &mut [u8],
    ) -> usize {
        assert!(out.len() >= max_compress_len(input.len()));
        let mut op = write_varint(out, input.len());
        for block in input.chunks(BLOCK) {
            op = self.block::<H6, SKIP_SHIFT, BITS>(block, out, op);
        }
        op
    }

    #[inline(always)]
    fn block<const H6: u32, const SKIP_SHIFT: u32, const BITS: u32>(
        &mut self,
        src: &[u8],
        out: &mut [u8],
        mut op: usize,
    ) -> usize {
        if src.len() < MARGIN + 1 {
            return emit_literal(src, 0, src.len(), out, op);
        }
        let mut bits = 8;
        while bits < BITS && (1usize << bits) < src.len() {
            bits += 1;
        }
        let shift = 64 - bits;
        let table = &mut self.table[..1 << bits];
        table.fill(0);
        let limit = src.len() - MARGIN;
        let mut next_emit = 0usize;
        let mut ip = 1usize;
        let mut next_hash = hash::<H6>(load64(src, ip), shift);
        'outer: loop {
            let mut skip = 1usize << SKIP_SHIFT;
            let mut next_ip = ip;
            let mut candidate;
            loop {
                ip = next_ip;
                let step = skip >> SKIP_SHIFT;
                next_ip = ip + step;
                skip += step;
                if next_ip > limit {
                    break 'outer;
                }
                candidate = table[next_hash & ((1 << bits) - 1)] as usize;
                table[next_hash & ((1 << bits) - 1)] = ip as u16;
                next_hash = hash::<H6>(load64(src, next_ip), shift);
                if load32(src, ip) == load32(src, candidate) {
                    break;
                }
            }
            op = emit_literal(src, next_emit, ip, out, op);
            loop {
                let base = ip;
                let len = 4 + match_len(src, candidate + 4, ip + 4);
                ip += len;
                op = emit_copy(out, op, base - candidate, len);
                next_emit = ip;
                if ip >= limit {
                    break 'outer;
                }
                let x = load64(src, ip - 1);
                let x1 = load64(src, ip);
                let hp = hash::<H6>(x, shift) & ((1 << bits) - 1);
                table[hp] = (ip - 1) as u16;
                let hc = hash::<H6>(x1, shift) & ((1 << bits) - 1);
                candidate = table[hc] as usize;
                table[hc] = ip as u16;
                if x1 as u32 != load32(src, candidate) {
                    ip += 1;
                    next_hash = hash::<H6>(load64(src, ip), shift);
                    break;
                }
            }
        }
        if next_emit < src.len() {
            op = emit_literal(src, next_emit, src.len(), out, op);
        }
        op
    }
}
