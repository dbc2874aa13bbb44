//! How the executor reads and writes a state's cells: packed at a fixed
//! width (the executor is compiled once per width, so a read is one load),
//! four bits each (a large state whose cells are all 0..=15), or unpacked to
//! `i64`.

use crate::error_kind::RuntimeKind;
use crate::game::GameError;

/// A host's cells for compiled rules: `len` cells packed at `width` (a
/// `NIBBLE` or 1, 2, 4, 8 bytes) from `ptr`; written only when `writable`.
#[derive(Clone, Copy)]
pub(crate) struct Raw {
    pub width: u8,
    pub ptr: *mut u8,
    pub len: usize,
    pub writable: bool,
}

/// Cells the rules can read.
pub(super) trait Cells: Copy {
    fn get(&self, i: usize) -> i64;
    fn len(&self) -> usize;
    /// The cells for compiled rules, which only read them.
    fn raw(&self) -> Raw;

    /// The cells, unpacked.
    fn to_vec(&self) -> Vec<i64> {
        (0..self.len()).map(|i| self.get(i)).collect()
    }
}

/// The error that says a value does not fit the state's width (kind
/// `RuntimeKind::Widen`): never shown, the move is played again on unpacked cells.
#[cold]
pub(super) fn widen() -> GameError {
    GameError::new(RuntimeKind::Widen, "a value does not fit the cells' width")
}

/// Cells of `W` bytes each, little-endian.
#[derive(Clone, Copy)]
pub(super) struct Packed<'a, const W: usize>(pub &'a [u8]);

/// The same, to change.
pub(super) struct PackedMut<'a, const W: usize>(pub &'a mut [u8]);

#[inline(always)]
fn read<const W: usize>(bytes: &[u8], i: usize) -> i64 {
    let b = &bytes[i * W..i * W + W];
    match W {
        1 => i64::from(b[0] as i8),
        2 => i64::from(i16::from_le_bytes([b[0], b[1]])),
        4 => i64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        _ => i64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
    }
}

/// Whether `v` fits `W` bytes.
#[inline(always)]
pub(super) fn fits<const W: usize>(v: i64) -> bool {
    match W {
        1 => i8::try_from(v).is_ok(),
        2 => i16::try_from(v).is_ok(),
        4 => i32::try_from(v).is_ok(),
        _ => true,
    }
}

impl<const W: usize> Cells for Packed<'_, W> {
    #[inline(always)]
    fn get(&self, i: usize) -> i64 {
        read::<W>(self.0, i)
    }

    #[inline(always)]
    fn len(&self) -> usize {
        self.0.len() / W
    }

    #[inline(always)]
    fn raw(&self) -> Raw {
        Raw {
            width: W as u8,
            ptr: self.0.as_ptr().cast_mut(),
            len: self.0.len() / W,
            writable: false,
        }
    }
}

impl<const W: usize> PackedMut<'_, W> {
    #[inline(always)]
    pub(super) fn get(&self, i: usize) -> i64 {
        read::<W>(self.0, i)
    }

    /// Stores `v` at `i`; fails with [`widen`] when `v` does not fit the width.
    #[inline(always)]
    pub(super) fn set(&mut self, i: usize, v: i64) -> Result<(), GameError> {
        if !fits::<W>(v) {
            return Err(widen());
        }
        let b = &mut self.0[i * W..i * W + W];
        b.copy_from_slice(&v.to_le_bytes()[..W]);
        Ok(())
    }

    pub(super) fn to_vec(&self) -> Vec<i64> {
        Packed::<W>(self.0).to_vec()
    }
}

/// Cells of four bits each (0..=15), two a byte, the even cell in the low half.
#[derive(Clone, Copy)]
pub(super) struct Nibbles<'a> {
    pub bytes: &'a [u8],
    pub len: usize,
}

/// The same, to change.
pub(super) struct NibblesMut<'a> {
    pub bytes: &'a mut [u8],
    pub len: usize,
}

#[inline(always)]
fn read_nibble(bytes: &[u8], i: usize) -> i64 {
    i64::from((bytes[i / 2] >> ((i & 1) * 4)) & 15)
}

impl Cells for Nibbles<'_> {
    #[inline(always)]
    fn get(&self, i: usize) -> i64 {
        read_nibble(self.bytes, i)
    }

    #[inline(always)]
    fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    fn raw(&self) -> Raw {
        Raw {
            width: super::state::NIBBLE,
            ptr: self.bytes.as_ptr().cast_mut(),
            len: self.len,
            writable: false,
        }
    }
}

impl NibblesMut<'_> {
    #[inline(always)]
    pub(super) fn get(&self, i: usize) -> i64 {
        read_nibble(self.bytes, i)
    }

    /// Stores `v` at `i`; fails with [`widen`] when `v` is outside 0..=15.
    #[inline(always)]
    pub(super) fn set(&mut self, i: usize, v: i64) -> Result<(), GameError> {
        if !(0..=15).contains(&v) {
            return Err(widen());
        }
        let shift = (i & 1) * 4;
        let b = &mut self.bytes[i / 2];
        *b = (*b & !(15 << shift)) | ((v as u8) << shift);
        Ok(())
    }

    pub(super) fn to_vec(&self) -> Vec<i64> {
        Nibbles {
            bytes: self.bytes,
            len: self.len,
        }
        .to_vec()
    }
}
