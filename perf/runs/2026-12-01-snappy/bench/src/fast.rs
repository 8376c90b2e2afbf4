//! Unchecked variant: same algorithm shape, lean paths.
use crate::enc::max_compress_len;
const BLOCK: usize = 1 << 16;
const MARGIN: usize = 16;

#[inline(always)]
unsafe fn l32(p: *const u8) -> u32 {
    (p as *const u32).read_unaligned()
}
#[inline(always)]
unsafe fn l64(p: *const u8) -> u64 {
    (p as *const u64).read_unaligned()
}

pub struct Fast {
    table: Vec<u16>,
}
impl Fast {
    pub fn new() -> Self {
        Fast { table: vec![0; 1 << 16] }
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

#[inline(always)]
unsafe fn emit_literal(src: *const u8, len: usize, mut op: *mut u8, allow16: bool) -> *mut u8 {
    let n = len - 1;
    if n < 60 {
        *op = (n as u8) << 2;
        op = op.add(1);
        if allow16 && len <= 16 {
            std::ptr::copy_nonoverlapping(src, op, 16);
            return op.add(len);
        }
    } else if n < 256 {
        *op = 60 << 2;
        *op.add(1) = n as u8;
        op = op.add(2);
    } else {
        *op = 61 << 2;
        *op.add(1) = n as u8;
        *op.add(2) = (n >> 8) as u8;
        op = op.add(3);
    }
    std::ptr::copy_nonoverlapping(src, op, len);
    op.add(len)
}

#[inline(always)]
unsafe fn emit_copy(mut op: *mut u8, offset: usize, mut len: usize) -> *mut u8 {
    if len <= 64 {
        if len < 12 && offset < 2048 {
            (op as *mut u16).write_unaligned(
                (((offset >> 8) << 5) | ((len - 4) << 2) | 1 | ((offset & 0xff) << 8)) as u16,
            );
            return op.add(2);
        }
        *op = (((len - 1) as u8) << 2) | 2;
        (op.add(1) as *mut u16).write_unaligned(offset as u16);
        return op.add(3);
    }
    while len >= 68 {
        *op = (63 << 2) | 2;
        (op.add(1) as *mut u16).write_unaligned(offset as u16);
        op = op.add(3);
        len -= 64;
    }
    if len > 64 {
        *op = (59 << 2) | 2;
        (op.add(1) as *mut u16).write_unaligned(offset as u16);
        op = op.add(3);
        len -= 60;
    }
    if len < 12 && offset < 2048 {
        (op as *mut u16).write_unaligned(
            (((offset >> 8) << 5) | ((len - 4) << 2) | 1 | ((offset & 0xff) << 8)) as u16,
        );
        op.add(2)
    } else {
        *op = (((len - 1) as u8) << 2) | 2;
        (op.add(1) as *mut u16).write_unaligned(offset as u16);
        op.add(3)
    }
}

impl Fast {
    pub fn compress<const HB: u32, const SKIP: u32, const BITS: u32>(
        &mut self,
        input: &[u8],
        out: &mut [u8],
    ) -> usize {
        assert!(out.len() >= max_compress_len(input.len()));
        let mut v = input.len();
        let mut i = 0;
        while v >= 0x80 {
            out[i] = v as u8 | 0x80;
            v >>= 7;
            i += 1;
        }
        out[i] = v as u8;
        let base = out.as_mut_ptr();
        let mut op = unsafe { base.add(i + 1) };
        let nblocks = input.chunks(BLOCK).len();
        for (k, block) in input.chunks(BLOCK).enumerate() {
            let _ = (k, nblocks);
            op = unsafe { self.block::<HB, SKIP, BITS>(block, op) };
        }
        unsafe { op.offset_from(base) as usize }
    }

    #[inline(always)]
    unsafe fn block<const HB: u32, const SKIP: u32, const BITS: u32>(
        &mut self,
        block: &[u8],
        mut op: *mut u8,
    ) -> *mut u8 {
        let n = block.len();
        let src = block.as_ptr();
        if n < MARGIN + 1 {
            return emit_literal(src, n, op, false);
        }
        let mut bits = 8;
        while bits < BITS && (1usize << bits) < n {
            bits += 1;
        }
        let shift = 64 - bits;
        let table = &mut self.table[..1 << bits];
        table.fill(0);
        let t = table.as_mut_ptr();
        let limit = n - MARGIN;
        let mut next_emit = 0usize;
        let mut ip = 1usize;
        let mut next_hash = hash::<HB>(l64(src.add(ip)), shift);
        'outer: loop {
            let mut skip = 1usize << SKIP;
            let mut next_ip = ip;
            let mut candidate;
            loop {
                ip = next_ip;
                let step = skip >> SKIP;
                next_ip = ip + step;
                skip += step;
                if next_ip > limit {
                    break 'outer;
                }
                candidate = *t.add(next_hash) as usize;
                *t.add(next_hash) = ip as u16;
                next_hash = hash::<HB>(l64(src.add(next_ip)), shift);
                if l32(src.add(ip)) == l32(src.add(candidate)) {
                    break;
                }
            }
            op = emit_literal(src.add(next_emit), ip - next_emit, op, true);
            loop {
                // extend
                let start = ip;
                let mut a = candidate + 4;
                let mut b = ip + 4;
                loop {
                    if b + 8 > n {
                        while b < n && *src.add(a) == *src.add(b) {
                            a += 1;
                            b += 1;
                        }
                        break;
                    }
                    let x = l64(src.add(a)) ^ l64(src.add(b));
                    if x != 0 {
                        b += (x.trailing_zeros() / 8) as usize;
                        break;
                    }
                    a += 8;
                    b += 8;
                }
                ip = b;
                op = emit_copy(op, start - candidate, ip - start);
                next_emit = ip;
                if ip >= limit {
                    break 'outer;
                }
                let x = l64(src.add(ip - 1));
                *t.add(hash::<HB>(x, shift)) = (ip - 1) as u16;
                let x1 = x >> 8 | ((*src.add(ip + 7) as u64) << 56);
                let hc = hash::<HB>(x1, shift);
                candidate = *t.add(hc) as usize;
                *t.add(hc) = ip as u16;
                if x1 as u32 != l32(src.add(candidate)) {
                    ip += 1;
                    next_hash = hash::<HB>(x1 >> 8 | ((*src.add(ip + 7) as u64) << 56), shift);
                    break;
                }
            }
        }
        if next_emit < n {
            op = emit_literal(src.add(next_emit), n - next_emit, op, false);
        }
        op
    }
}
