//! A position, compactly: the cells of the program's state packed at the
//! narrowest width that holds every one of them (8, 16, 32 or 64 bits; 4 bits
//! for a state of 13-24 cells all in 0..=15, such as Nimcala's with 12
//! pits), inline when they fit 12 bytes, so that a state is 16 bytes and
//! copying, hashing and comparing it touches no heap.
//!
//! The width is chosen per state from its own values, never per program: the
//! compiler cannot bound an `int` in general (Nimcala's `board[p - 1] += 1`
//! is bounded only by the conservation of tokens), so a program-wide narrow
//! width would need a check that could fail. Chosen per state, the encoding
//! is a function of the values alone: two states are equal exactly when their
//! bytes are, and no value ever fails to fit. The rules run on the cells
//! unpacked to `i64`.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::mem::MaybeUninit;
use std::sync::atomic::AtomicU8;
use std::sync::atomic::Ordering::Relaxed;

/// Bytes of cells a state holds without a heap allocation.
const INLINE: usize = 12;

/// The width code of cells of four bits (0..=15), two a byte, the even cell
/// in the low half. Only states that it brings inline use it (more than
/// `INLINE` cells, at most twice as many): smaller states keep the one-load
/// reads of whole bytes, and larger ones are on the heap either way (connect
/// four's playouts took 7% more instructions at four bits).
pub(super) const NIBBLE: u8 = 0;

/// Whether `len` cells are packed at four bits when their values allow it.
#[inline(always)]
fn nibbles_fit(len: usize) -> bool {
    len > INLINE && len <= 2 * INLINE
}

/// The widths narrower than `width` that a state of `len` cells can be
/// packed at, as its values shrink (narrowest first).
pub(super) fn narrower_widths(len: usize, width: u8) -> impl Iterator<Item = u8> {
    let nibble = nibbles_fit(len).then_some(NIBBLE);
    nibble
        .into_iter()
        .chain([1, 2, 4])
        .filter(move |&w| width != NIBBLE && w < width)
}

/// Whether some cell of a small state packed at 2 bytes a cell lies
/// outside `i8`, so that it cannot be packed narrower: each cell's high
/// byte is compared with its low byte's sign, all at once. The bytes past
/// the cells are zero, as cells that fit.
#[inline(always)]
fn needs_two_bytes(bytes: &[u8; INLINE]) -> bool {
    let mut word = [0u8; 16];
    word[..INLINE].copy_from_slice(bytes);
    let x = u128::from_le_bytes(word);
    // Bit 0 of every 16-bit cell.
    const LOW: u128 = u128::from_le_bytes([1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0]);
    let sign = (x >> 7) & LOW;
    let high = (x >> 8) & (LOW * 0xff);
    high != sign * 0xff
}

/// Cells up to this many are unpacked on the stack.
pub(super) const STACK_CELLS: usize = 16;

/// Bytes of a large state's cells that are copied aside on the stack before
/// a move is played on them in place (more: they are copied to the heap,
/// which still costs far less than playing the move on unpacked cells).
const BACKUP: usize = 512;

/// `ended` before `turn` has looked.
pub(super) const UNKNOWN: u8 = u8::MAX;
/// `ended` when no `end when` clause holds (in a game with chance or
/// simultaneous moves: and who acts is not known yet).
pub(super) const NOT_ENDED: u8 = u8::MAX - 1;
/// `ended` in a game with chance or simultaneous moves when no clause holds
/// and `turn` has found who acts: chance, everyone at once, or the player
/// to move. Finding out runs the move rules, which a search asks of the
/// same position several times (descending, listing moves, playing out).
pub(super) const NOT_ENDED_CHANCE: u8 = u8::MAX - 2;
pub(super) const NOT_ENDED_SIMULTANEOUS: u8 = u8::MAX - 3;
pub(super) const NOT_ENDED_PLAYER: u8 = u8::MAX - 4;
/// Clauses past this index are not remembered (looked at again each time).
pub(super) const MAX_REMEMBERED_END: usize = NOT_ENDED_PLAYER as usize - 1;

/// A position: the cells of the program's state, the player to move included.
///
/// Besides the cells, a state remembers which `end when` clause holds once
/// `turn` has found out, so that `returns` (and a second `turn`) need not
/// evaluate the end conditions again. It is derived from the cells, so
/// equality, hashing and order look at the cells alone.
pub struct State(Repr);

enum Repr {
    Inline {
        /// `UNKNOWN`, `NOT_ENDED`, or the index of the first clause that
        /// holds; a relaxed atomic (a plain load and store), as a `&State`
        /// may be shared between threads.
        ended: AtomicU8,
        /// Bytes per cell: 1, 2, 4 or 8; or `NIBBLE`.
        width: u8,
        /// How many cells.
        len: u8,
        /// The cells, little-endian; past `len * width`, zero.
        bytes: [u8; INLINE],
    },
    Heap(Box<Heap>),
}

/// A large state's packed cells, copied aside to start again from when a
/// value outgrows their width.
pub(super) struct Backup {
    width: u8,
    len: usize,
    /// Only the state's bytes: a zeroed array of `BACKUP` bytes cost a
    /// `memset` per move (1% of connect four's playout instructions).
    bytes: smallvec::SmallVec<[u8; BACKUP]>,
}

impl Backup {
    /// An empty backup, to fill with `State::backup_into`.
    #[inline(always)]
    pub(super) fn new() -> Backup {
        Backup {
            width: 0,
            len: 0,
            bytes: smallvec::SmallVec::new(),
        }
    }
}

struct Heap {
    ended: AtomicU8,
    width: u8,
    len: usize,
    /// A cell that needed the whole width when last looked at: after a
    /// move, if it still does, no narrower width can hold the cells, and
    /// the scan of every cell is skipped (Go's 659 cells stay at 8 bytes
    /// for one hash, and the scan was a quarter of a playout). A hint
    /// only: any cell will do, and it is checked before it is trusted.
    wide: usize,
    bytes: Box<[u8]>,
}

/// The narrowest width (in bytes) that holds every cell.
#[inline(always)]
fn width_of(cells: &[i64]) -> u8 {
    let (mut lo, mut hi) = (0i64, 0i64);
    for &c in cells {
        lo = lo.min(c);
        hi = hi.max(c);
    }
    width_for(cells.len(), lo, hi)
}

/// The narrowest width for `len` cells between `lo` and `hi`.
#[inline(always)]
fn width_for(len: usize, lo: i64, hi: i64) -> u8 {
    if nibbles_fit(len) && lo >= 0 && hi <= 15 {
        NIBBLE
    } else if lo >= i64::from(i8::MIN) && hi <= i64::from(i8::MAX) {
        1
    } else if lo >= i64::from(i16::MIN) && hi <= i64::from(i16::MAX) {
        2
    } else if lo >= i64::from(i32::MIN) && hi <= i64::from(i32::MAX) {
        4
    } else {
        8
    }
}

/// Whether a cell of value `v` needs all of `width` (2, 4 or 8 bytes): it
/// lies outside what half of it holds.
#[inline(always)]
fn needs_width(v: i64, width: u8) -> bool {
    let half = 4 * u32::from(width) - 1;
    v < -(1i64 << half) || v >= 1i64 << half
}

/// Bytes that `len` cells take at `width`.
#[inline(always)]
fn size_of(len: usize, width: u8) -> usize {
    if width == NIBBLE {
        len.div_ceil(2)
    } else {
        len * width as usize
    }
}

/// Cell `i` of `bytes` packed at `width`.
#[inline(always)]
fn read(bytes: &[u8], width: u8, i: usize) -> i64 {
    let w = width as usize;
    match width {
        NIBBLE => i64::from((bytes[i / 2] >> ((i & 1) * 4)) & 15),
        1 => i64::from(bytes[i] as i8),
        2 => i64::from(i16::from_le_bytes([bytes[i * w], bytes[i * w + 1]])),
        4 => i64::from(i32::from_le_bytes(bytes[i * w..i * w + 4].try_into().expect("4 bytes"))),
        _ => i64::from_le_bytes(bytes[i * w..i * w + 8].try_into().expect("8 bytes")),
    }
}

/// Writes `cells` at `width` bytes each into `out` (which holds at least
/// that many); the bytes of a cell past the last, in its byte, are zero.
#[inline(always)]
fn pack(cells: &[i64], width: u8, out: &mut [u8]) {
    match width {
        NIBBLE => {
            for (o, pair) in out.iter_mut().zip(cells.chunks(2)) {
                let high = pair.get(1).map_or(0, |&c| c as u8);
                *o = (pair[0] as u8 & 15) | (high << 4);
            }
        }
        1 => {
            for (o, &c) in out.iter_mut().zip(cells) {
                *o = c as i8 as u8;
            }
        }
        2 => {
            for (o, &c) in out.chunks_exact_mut(2).zip(cells) {
                o.copy_from_slice(&(c as i16).to_le_bytes());
            }
        }
        4 => {
            for (o, &c) in out.chunks_exact_mut(4).zip(cells) {
                o.copy_from_slice(&(c as i32).to_le_bytes());
            }
        }
        _ => {
            for (o, &c) in out.chunks_exact_mut(8).zip(cells) {
                o.copy_from_slice(&c.to_le_bytes());
            }
        }
    }
}

/// Reads cells of `width` bytes from `bytes` into `out`.
#[inline(always)]
fn unpack(bytes: &[u8], width: u8, out: &mut [i64]) {
    match width {
        NIBBLE => {
            for (i, o) in out.iter_mut().enumerate() {
                *o = read(bytes, NIBBLE, i);
            }
        }
        1 => {
            for (o, &b) in out.iter_mut().zip(bytes) {
                *o = i64::from(b as i8);
            }
        }
        2 => {
            for (o, b) in out.iter_mut().zip(bytes.chunks_exact(2)) {
                *o = i64::from(i16::from_le_bytes([b[0], b[1]]));
            }
        }
        4 => {
            for (o, b) in out.iter_mut().zip(bytes.chunks_exact(4)) {
                *o = i64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]]));
            }
        }
        _ => {
            for (o, b) in out.iter_mut().zip(bytes.chunks_exact(8)) {
                *o = i64::from_le_bytes(b.try_into().expect("8 bytes"));
            }
        }
    }
}

impl State {
    /// The state holding `cells`.
    pub(super) fn new(cells: &[i64]) -> State {
        let width = width_of(cells);
        let size = size_of(cells.len(), width);
        if size <= INLINE {
            let mut bytes = [0; INLINE];
            pack(cells, width, &mut bytes);
            State(Repr::Inline {
                ended: AtomicU8::new(UNKNOWN),
                width,
                len: cells.len() as u8,
                bytes,
            })
        } else {
            let mut bytes = vec![0; size].into_boxed_slice();
            pack(cells, width, &mut bytes);
            State(Repr::Heap(Box::new(Heap {
                ended: AtomicU8::new(UNKNOWN),
                width,
                len: cells.len(),
                wide: 0,
                bytes,
            })))
        }
    }

    /// How many cells.
    #[inline(always)]
    pub(super) fn len(&self) -> usize {
        match &self.0 {
            Repr::Inline { len, .. } => *len as usize,
            Repr::Heap(h) => h.len,
        }
    }

    /// The width and the packed bytes (exactly the cells').
    #[inline(always)]
    pub(super) fn packed(&self) -> (u8, &[u8]) {
        let (width, len, bytes) = self.packed_parts();
        (width, &bytes[..size_of(len, width)])
    }

    /// The width, the number of cells, and bytes that begin with theirs
    /// (an inline state's whole array, zeros past its cells): for a caller
    /// that cuts the cells' bytes at a width it knows, without working out
    /// their length for any width (`size_of`, 7 instructions a call).
    #[inline(always)]
    pub(super) fn packed_parts(&self) -> (u8, usize, &[u8]) {
        match &self.0 {
            Repr::Inline { width, len, bytes, .. } => (*width, *len as usize, &bytes[..]),
            Repr::Heap(h) => (h.width, h.len, &h.bytes),
        }
    }

    /// `packed_parts`, to change in place: values must keep fitting the
    /// width, and `changed` must be called after.
    #[inline(always)]
    pub(super) fn packed_parts_mut(&mut self) -> (u8, usize, &mut [u8]) {
        match &mut self.0 {
            Repr::Inline { width, len, bytes, .. } => (*width, *len as usize, &mut bytes[..]),
            Repr::Heap(h) => (h.width, h.len, &mut h.bytes),
        }
    }

    /// `packed`, to change in place: values must keep fitting the width,
    /// and `changed` must be called after.
    #[inline(always)]
    pub(super) fn packed_mut(&mut self) -> (u8, &mut [u8]) {
        let (width, len, bytes) = self.packed_parts_mut();
        (width, &mut bytes[..size_of(len, width)])
    }

    /// Copies a heap state's cells into `out` (false for a state held
    /// inline, with `out` untouched). Filled in place, as returning the
    /// backup by value copied its whole buffer.
    #[inline(always)]
    pub(super) fn backup_into(&self, out: &mut Backup) -> bool {
        let Repr::Heap(h) = &self.0 else {
            return false;
        };
        out.width = h.width;
        out.len = h.len;
        out.bytes.clear();
        out.bytes.extend_from_slice(&h.bytes);
        true
    }

    /// Puts back the cells of `backup` (what `turn` found is forgotten).
    #[cold]
    pub(super) fn restore(&mut self, backup: &Backup) {
        let mut cells = vec![0; backup.len];
        unpack(&backup.bytes, backup.width, &mut cells);
        *self = State::new(&cells);
    }

    /// Whether the cells are held without a heap allocation.
    #[inline(always)]
    pub(super) fn is_inline(&self) -> bool {
        matches!(self.0, Repr::Inline { .. })
    }

    /// All the bytes of a state held inline, the zeros past its cells
    /// included: a copy of fixed size, which needs no call to `memcpy`.
    #[inline(always)]
    pub(super) fn inline_bytes(&self) -> Option<[u8; INLINE]> {
        match &self.0 {
            Repr::Inline { bytes, .. } => Some(*bytes),
            Repr::Heap(_) => None,
        }
    }

    /// Puts back the bytes `inline_bytes` gave, at the same width (what
    /// `turn` found is not touched: the caller changed nothing it knows of).
    #[inline(always)]
    pub(super) fn set_inline_bytes(&mut self, saved: [u8; INLINE]) {
        if let Repr::Inline { bytes, .. } = &mut self.0 {
            *bytes = saved;
        }
    }

    /// After the packed cells were changed in place: forgets what `turn`
    /// found, and packs the cells narrower if they now fit.
    #[inline(always)]
    pub(super) fn changed(&mut self) {
        let width = match &mut self.0 {
            Repr::Inline {
                ended, width, bytes, ..
            } => {
                *ended.get_mut() = UNKNOWN;
                // The common case of a small state at 2 bytes a cell (sets
                // of up to 15 numbers): a cell that needs both bytes is
                // found without reading the cells one by one.
                if *width == 2 && needs_two_bytes(bytes) {
                    return;
                }
                *width
            }
            Repr::Heap(h) => {
                *h.ended.get_mut() = UNKNOWN;
                if h.width > 1 && h.wide < h.len && needs_width(read(&h.bytes, h.width, h.wide), h.width) {
                    return;
                }
                h.width
            }
        };
        // Narrower cells must be packed narrower, so that equal values are
        // equal bytes: from 2 bytes up, and from 1 byte to four bits where
        // four bits are used (four-bit cells stay in 0..=15, as a value
        // outside fails to store).
        let could_narrow = width > 1 || (width == 1 && nibbles_fit(self.len()));
        if could_narrow && self.narrowest() < width {
            // Packed again through the stack where the cells fit there.
            self.update(|_| ());
        } else if let Repr::Heap(h) = &mut self.0
            && h.width > 1
        {
            h.wide = (0..h.len)
                .find(|&i| needs_width(read(&h.bytes, h.width, i), h.width))
                .unwrap_or(0);
        }
    }

    /// The narrowest width that holds every cell, read in place.
    #[inline(always)]
    fn narrowest(&self) -> u8 {
        let (width, bytes) = self.packed();
        let (mut lo, mut hi) = (0i64, 0i64);
        let mut see = |c: i64| {
            lo = lo.min(c);
            hi = hi.max(c);
        };
        match width {
            NIBBLE => return NIBBLE,
            1 => bytes.iter().for_each(|&b| see(i64::from(b as i8))),
            2 => bytes
                .chunks_exact(2)
                .for_each(|b| see(i64::from(i16::from_le_bytes([b[0], b[1]])))),
            4 => bytes
                .chunks_exact(4)
                .for_each(|b| see(i64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])))),
            _ => bytes
                .chunks_exact(8)
                .for_each(|b| see(i64::from_le_bytes(b.try_into().expect("8 bytes")))),
        }
        width_for(self.len(), lo, hi)
    }

    /// Which end clause holds, as far as `turn` has found out.
    #[inline(always)]
    pub(super) fn ended(&self) -> u8 {
        match &self.0 {
            Repr::Inline { ended, .. } => ended.load(Relaxed),
            Repr::Heap(h) => h.ended.load(Relaxed),
        }
    }

    #[inline(always)]
    pub(super) fn set_ended(&self, value: u8) {
        match &self.0 {
            Repr::Inline { ended, .. } => ended.store(value, Relaxed),
            Repr::Heap(h) => h.ended.store(value, Relaxed),
        }
    }

    /// Remembers what `turn` found: the first end clause that holds (where
    /// its index fits), or none.
    #[inline(always)]
    pub(super) fn remember_end(&self, at: Option<usize>) {
        match at {
            None => self.set_ended(NOT_ENDED),
            Some(i) if i <= MAX_REMEMBERED_END => self.set_ended(i as u8),
            Some(_) => {}
        }
    }

    /// The player to move (`TURN_CELL`), read without working out the
    /// length of the packed cells: every state has the cell.
    #[inline(always)]
    pub(super) fn turn_cell(&self) -> i64 {
        let (width, bytes) = match &self.0 {
            Repr::Inline { width, bytes, .. } => (*width, &bytes[..]),
            Repr::Heap(h) => (h.width, &h.bytes[..]),
        };
        read(bytes, width, crate::ir::TURN_CELL)
    }

    /// Cell `i`.
    #[inline(always)]
    pub(super) fn cell(&self, i: usize) -> i64 {
        let (width, bytes) = self.packed();
        read(bytes, width, i)
    }

    /// Writes the cells into `out`, which has room for exactly them.
    #[inline(always)]
    pub(super) fn unpack_into(&self, out: &mut [i64]) {
        let (width, bytes) = self.packed();
        unpack(bytes, width, out);
    }

    /// The cells, unpacked.
    pub fn cells(&self) -> Vec<i64> {
        let mut out = vec![0; self.len()];
        self.unpack_into(&mut out);
        out
    }

    /// Unpacks the `n` cells into `buf`.
    #[inline(always)]
    fn unpack_to_stack<'b>(&self, buf: &'b mut [MaybeUninit<i64>; STACK_CELLS], n: usize) -> &'b mut [i64] {
        let (width, bytes) = self.packed();
        for (i, slot) in buf[..n].iter_mut().enumerate() {
            slot.write(read(bytes, width, i));
        }
        // SAFETY: the first `n` cells were just written.
        unsafe { &mut *(&mut buf[..n] as *mut [MaybeUninit<i64>] as *mut [i64]) }
    }

    /// As [`update`](State::update), but the state stays as it was when
    /// `keep` says so of what `f` returned: `f` works on an unpacked copy,
    /// so a move that compiled code hands back to the VM needs no copy of
    /// the state made before it.
    #[inline(always)]
    pub(super) fn update_unless<T>(&mut self, f: impl FnOnce(&mut [i64]) -> T, keep: impl FnOnce(&T) -> bool) -> T {
        let n = self.len();
        if n <= STACK_CELLS {
            let mut buf = [MaybeUninit::<i64>::uninit(); STACK_CELLS];
            let cells = self.unpack_to_stack(&mut buf, n);
            let out = f(cells);
            if !keep(&out) {
                self.store(cells);
            }
            out
        } else {
            let mut cells = self.cells();
            let out = f(&mut cells);
            if !keep(&out) {
                self.store(&cells);
            }
            out
        }
    }

    /// Runs `f` on the cells to change them, then packs them again; what
    /// `turn` remembered is forgotten.
    #[inline(always)]
    pub(super) fn update<T>(&mut self, f: impl FnOnce(&mut [i64]) -> T) -> T {
        let n = self.len();
        if n <= STACK_CELLS {
            let mut buf = [MaybeUninit::<i64>::uninit(); STACK_CELLS];
            let cells = self.unpack_to_stack(&mut buf, n);
            let out = f(cells);
            self.store(cells);
            out
        } else {
            let mut cells = self.cells();
            let out = f(&mut cells);
            self.store(&cells);
            out
        }
    }

    /// Replaces the cells (as many as before), reusing the allocation of a large state.
    #[inline(always)]
    fn store(&mut self, cells: &[i64]) {
        let width = width_of(cells);
        let size = size_of(cells.len(), width);
        match &mut self.0 {
            Repr::Inline {
                ended, width: w, bytes, ..
            } if size <= INLINE => {
                *ended.get_mut() = UNKNOWN;
                *w = width;
                let mut packed = [0; INLINE];
                pack(cells, width, &mut packed);
                *bytes = packed;
            }
            Repr::Heap(h) if h.bytes.len() == size => {
                *h.ended.get_mut() = UNKNOWN;
                h.width = width;
                pack(cells, width, &mut h.bytes);
            }
            _ => *self = State::new(cells),
        }
    }
}

impl Clone for State {
    #[inline(always)]
    fn clone(&self) -> Self {
        match &self.0 {
            Repr::Inline {
                ended,
                width,
                len,
                bytes,
            } => State(Repr::Inline {
                ended: AtomicU8::new(ended.load(Relaxed)),
                width: *width,
                len: *len,
                bytes: *bytes,
            }),
            Repr::Heap(h) => State(Repr::Heap(Box::new(Heap {
                ended: AtomicU8::new(h.ended.load(Relaxed)),
                width: h.width,
                len: h.len,
                wide: h.wide,
                bytes: h.bytes.clone(),
            }))),
        }
    }

    /// The searches reuse one child state per level with `clone_from`: a
    /// large state of the same size is copied without allocating.
    #[inline(always)]
    fn clone_from(&mut self, source: &Self) {
        match (&mut self.0, &source.0) {
            // Field by field: `*self = source.clone()` would also run the
            // drop glue of the state it replaces.
            (
                Repr::Inline {
                    ended,
                    width,
                    len,
                    bytes,
                },
                Repr::Inline {
                    ended: e,
                    width: w,
                    len: l,
                    bytes: b,
                },
            ) => {
                *ended.get_mut() = e.load(Relaxed);
                *width = *w;
                *len = *l;
                *bytes = *b;
            }
            (Repr::Heap(d), Repr::Heap(s)) if d.bytes.len() == s.bytes.len() => {
                *d.ended.get_mut() = s.ended.load(Relaxed);
                d.width = s.width;
                d.len = s.len;
                d.wide = s.wide;
                d.bytes.copy_from_slice(&s.bytes);
            }
            _ => *self = source.clone(),
        }
    }
}

impl PartialEq for State {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (
                Repr::Inline {
                    width: a,
                    len: m,
                    bytes: x,
                    ..
                },
                Repr::Inline {
                    width: b,
                    len: n,
                    bytes: y,
                    ..
                },
            ) => a == b && m == n && x == y,
            _ => self.len() == other.len() && self.packed() == other.packed(),
        }
    }
}

impl Eq for State {}

impl Hash for State {
    #[inline(always)]
    fn hash<H: Hasher>(&self, h: &mut H) {
        match &self.0 {
            // Two words: the unused bytes are zero, so equal states hash alike.
            Repr::Inline { width, len, bytes, .. } => {
                let (a, b) = bytes.split_at(8);
                let rest = u64::from(u32::from_le_bytes(b.try_into().expect("4 bytes")));
                h.write_u64(u64::from_le_bytes(a.try_into().expect("8 bytes")));
                h.write_u64(rest << 16 | u64::from(*len) << 8 | u64::from(*width));
            }
            Repr::Heap(s) => {
                h.write_u8(s.width);
                h.write_usize(s.len);
                h.write(&s.bytes);
            }
        }
    }
}

impl PartialOrd for State {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// By the cells' values, in order.
impl Ord for State {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.cells().cmp(&other.cells())
    }
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("State").field("cells", &self.cells()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_that_needs_two_bytes_is_found_in_every_place() {
        let values = [0i64, 1, -1, 127, -128, 128, -129, 255, 256, 511, -32768, 32767];
        for (k, &v) in values.iter().enumerate() {
            for at in 0..INLINE / 2 {
                let mut cells = [(k as i64) % 3 - 1; INLINE / 2];
                cells[at] = v;
                let mut bytes = [0; INLINE];
                pack(&cells, 2, &mut bytes);
                let needs = cells.iter().any(|&c| i8::try_from(c).is_err());
                assert_eq!(needs_two_bytes(&bytes), needs, "{cells:?}");
            }
        }
    }

    #[test]
    fn a_state_is_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<State>(), 16);
    }

    #[test]
    fn cells_read_back_at_every_width_and_equal_values_are_equal_states() {
        let cases: [&[i64]; 10] = [
            &[0, -1, 7, 5, 3, 1],
            &[1, 0, 511, 9],
            &[0, 1, 70_000, -3],
            &[0, 1, i64::MAX, i64::MIN],
            &[3; 40],
            &[],
            // Nimcala 12 pits: four bits a cell, inline (odd and even counts).
            &[0, 1, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15, 3],
            &[0, 1, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15],
            // One cell past 0..=15: a byte a cell, on the heap.
            &[0, 1, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16, 3],
            &[-1, 1, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3],
        ];
        for cells in cases {
            let s = State::new(cells);
            assert_eq!(s.cells(), cells);
            assert_eq!(s.len(), cells.len());
            for (i, &c) in cells.iter().enumerate() {
                assert_eq!(s.cell(i), c);
            }
            // A state changed to other values and back is the same state.
            let mut t = s.clone();
            t.update(|c| c.iter_mut().for_each(|x| *x = x.wrapping_mul(1000)));
            t.update(|c| {
                c.copy_from_slice(cells);
            });
            assert_eq!(t, s);
            let hash = |s: &State| {
                let mut h = std::hash::DefaultHasher::new();
                s.hash(&mut h);
                h.finish()
            };
            assert_eq!(hash(&t), hash(&s));
        }
        assert!(State::new(cases[6]).is_inline());
        assert!(!State::new(cases[8]).is_inline());
        // Small states keep whole bytes, and so do states too large to come inline.
        assert_eq!(State::new(&[1, 2, 3]).packed().0, 1);
        assert_eq!(State::new(&[3; 40]).packed().0, 1);
        assert_ne!(State::new(&[1, 2]), State::new(&[1, 3]));
        assert_ne!(State::new(&[1, 2]), State::new(&[1, 2, 0]));
    }

    /// A large state changed in place to values that fit four bits is packed
    /// at four bits, as a new state of the same values is: equal values are
    /// equal bytes, and the state comes off the heap.
    #[test]
    fn a_large_state_narrows_to_four_bits_in_place() {
        let wide: Vec<i64> = [0, 1, 16].into_iter().chain([2; 11]).collect();
        let mut s = State::new(&wide);
        assert_eq!((s.packed().0, s.is_inline()), (1, false));
        let (_, bytes) = s.packed_mut();
        bytes[2] = 5;
        s.changed();
        let mut narrow = wide.clone();
        narrow[2] = 5;
        assert_eq!(s, State::new(&narrow));
        assert_eq!((s.packed().0, s.is_inline(), s.cells()), (NIBBLE, true, narrow));
    }
}
