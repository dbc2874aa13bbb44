//! The executor of flat code ([`Code`]): an instruction pointer over one
//! rule's instructions and a frame of `i64` registers.

use super::Move;
use super::cells::{Cells, PackedMut};
use crate::error_kind::RuntimeKind;
use crate::game::GameError;
use crate::ir::code::{Code, Entry, Op, SCRATCH_BASE, SetRange};
use crate::ir::{ArithOp, MAX_MOVE_ARGS, Program, Span, compare};

/// Deepest chain of function calls before a run is declared endless.
pub(super) const MAX_CALL_DEPTH: usize = 256;

/// The most loop steps and function calls one call into the rules may take
/// (one move's body, one position's legal moves, ...): nested loops over long
/// ranges, or a function that calls itself twice, would otherwise run for hours.
pub(super) const MAX_STEPS: u64 = 1 << 24;

/// The most combinations of arguments one kind of move may try in one position.
pub(super) const MAX_ARG_CHOICES: i64 = 1 << 16;

/// What one call into the rules may still spend: loop steps and calls, and
/// the depth of calls. Compiled rules read and write `steps` and `depth` in
/// place, at [`STEPS_AT`] and [`DEPTH_AT`].
pub(super) struct Budget {
    steps: u64,
    depth: usize,
    /// The item stack: collections copied before a loop's body may change
    /// them (it allocates only for games that loop over such collections).
    items: Vec<i64>,
}

/// Where `Budget::steps` (a `u64`) and `Budget::depth` (a `usize`) are in it.
pub(super) const STEPS_AT: usize = std::mem::offset_of!(Budget, steps);
pub(super) const DEPTH_AT: usize = std::mem::offset_of!(Budget, depth);

impl Budget {
    #[inline(always)]
    pub(super) fn new() -> Budget {
        Budget {
            steps: MAX_STEPS,
            depth: 0,
            items: Vec::new(),
        }
    }

    /// The item stack, for compiled code (`ItemsMark`, `ItemsPush`,
    /// `ItemsNext`, `ItemsDrop` as the VM runs them).
    pub(super) fn items_len(&self) -> i64 {
        self.items.len() as i64
    }

    pub(super) fn items_push(&mut self, x: i64) {
        self.items.push(x);
    }

    /// Item `i`, which must be below `items_len`.
    pub(super) fn item(&self, i: i64) -> i64 {
        self.items[i as usize]
    }

    pub(super) fn items_truncate(&mut self, mark: i64) {
        self.items.truncate(mark as usize);
    }

    /// Takes `n` steps from the budget.
    #[inline]
    fn spend(&mut self, n: u64, span: Span) -> Result<(), GameError> {
        match self.steps.checked_sub(n) {
            Some(left) => {
                self.steps = left;
                Ok(())
            }
            None => Err(too_many_steps(span)),
        }
    }
}

/// What the rules run on: the cells of a state (changed only by a move's
/// body), and where generated moves go.
pub(super) trait Host {
    fn get(&self, i: usize) -> i64;
    /// Stores a cell; fails where the state cannot change (conditions, move
    /// generation) and, for packed cells, when the value is too wide.
    fn set(&mut self, i: usize, v: i64) -> Result<(), GameError>;
    /// Takes a generated move; true to stop generating.
    fn emit(&mut self, mv: Move) -> bool;
    /// The cells as compiled rules see them: where they are, at what width.
    fn raw(&mut self) -> Raw;
    /// Where every generated move goes, when they all go to one buffer:
    /// compiled rules then write them into it without a call per move.
    #[inline(always)]
    fn moves(&mut self) -> Option<&mut Vec<Move>> {
        None
    }
    /// `n` zeroed cells of scratch for a call's local lists and sets: the
    /// address of the first. Only [`Scratch`] has any.
    #[inline(always)]
    fn scratch_alloc(&mut self, _n: usize, _span: Span) -> Result<i64, GameError> {
        Err(GameError::new(
            RuntimeKind::Internal,
            "a rule asked for scratch cells where there are none (a bug in gdl)",
        ))
    }
    /// How much scratch is in use, to free what a call took when it returns.
    #[inline(always)]
    fn scratch_mark(&self) -> usize {
        0
    }
    #[inline(always)]
    fn scratch_free(&mut self, _mark: usize) {}
}

/// The most scratch cells the calls in progress may hold together (8 MiB):
/// a function with local lists that calls itself deeply fails, as a
/// recursion too deep does, before it takes the machine's memory.
pub(super) const MAX_SCRATCH: usize = 1 << 20;

/// A host with a scratch area: the cells from [`SCRATCH_BASE`] on are the
/// local lists and sets of the calls in progress, each call's own from
/// where `scratch_alloc` put them until it returns. Even where the state is
/// only read (a function, a condition) they can be written.
pub(super) struct Scratch<'h, H> {
    host: &'h mut H,
    cells: Vec<i64>,
}

impl<H: Host> Host for Scratch<'_, H> {
    #[inline(always)]
    fn get(&self, i: usize) -> i64 {
        if i < SCRATCH_BASE {
            self.host.get(i)
        } else {
            self.cells[i - SCRATCH_BASE]
        }
    }

    #[inline(always)]
    fn set(&mut self, i: usize, v: i64) -> Result<(), GameError> {
        if i < SCRATCH_BASE {
            self.host.set(i, v)
        } else {
            self.cells[i - SCRATCH_BASE] = v;
            Ok(())
        }
    }

    #[inline(always)]
    fn emit(&mut self, mv: Move) -> bool {
        self.host.emit(mv)
    }

    #[inline(always)]
    fn raw(&mut self) -> Raw {
        self.host.raw()
    }

    #[inline(always)]
    fn moves(&mut self) -> Option<&mut Vec<Move>> {
        self.host.moves()
    }

    fn scratch_alloc(&mut self, n: usize, span: Span) -> Result<i64, GameError> {
        let at = self.cells.len();
        if n > MAX_SCRATCH - at {
            return Err(fault(
                RuntimeKind::Recursion,
                format!("the local lists and sets of the calls in progress need more than {MAX_SCRATCH} cells"),
                span,
            )
            .with_help("a function with local lists that calls itself needs a case that stops sooner"));
        }
        self.cells.resize(at + n, 0);
        Ok((SCRATCH_BASE + at) as i64)
    }

    #[inline(always)]
    fn scratch_mark(&self) -> usize {
        self.cells.len()
    }

    #[inline(always)]
    fn scratch_free(&mut self, mark: usize) {
        self.cells.truncate(mark);
    }
}

pub(super) use super::cells::Raw;

/// Evaluates conditions and values on a state it cannot change.
pub(super) struct Reader<C>(pub C);

impl<C: Cells> Host for Reader<C> {
    #[inline(always)]
    fn get(&self, i: usize) -> i64 {
        self.0.get(i)
    }

    #[inline(always)]
    fn set(&mut self, _: usize, _: i64) -> Result<(), GameError> {
        Err(read_only())
    }

    #[inline(always)]
    fn emit(&mut self, _: Move) -> bool {
        true
    }

    #[inline(always)]
    fn raw(&mut self) -> Raw {
        self.0.raw()
    }
}

/// Where generated moves go.
pub(super) trait Sink {
    /// Takes a move; true to stop generating.
    fn take(&mut self, mv: Move) -> bool;
    /// The buffer that `take` pushes every move onto, if it only does that.
    #[inline(always)]
    fn buffer(&mut self) -> Option<&mut Vec<Move>> {
        None
    }
}

impl<S: Sink> Sink for &mut S {
    #[inline(always)]
    fn take(&mut self, mv: Move) -> bool {
        (**self).take(mv)
    }

    #[inline(always)]
    fn buffer(&mut self) -> Option<&mut Vec<Move>> {
        (**self).buffer()
    }
}

/// Keeps every move.
pub(super) struct Collect<'v>(pub &'v mut Vec<Move>);

impl Sink for Collect<'_> {
    #[inline(always)]
    fn take(&mut self, mv: Move) -> bool {
        self.0.push(mv);
        false
    }

    #[inline(always)]
    fn buffer(&mut self) -> Option<&mut Vec<Move>> {
        Some(self.0)
    }
}

/// Stops at the first move.
pub(super) struct First;

impl Sink for First {
    #[inline(always)]
    fn take(&mut self, _: Move) -> bool {
        true
    }
}

/// Generates moves into a sink.
pub(super) struct Generator<C, S> {
    pub cells: C,
    pub sink: S,
}

impl<C: Cells, S: Sink> Host for Generator<C, S> {
    #[inline(always)]
    fn get(&self, i: usize) -> i64 {
        self.cells.get(i)
    }

    #[inline(always)]
    fn set(&mut self, _: usize, _: i64) -> Result<(), GameError> {
        Err(read_only())
    }

    #[inline(always)]
    fn emit(&mut self, mv: Move) -> bool {
        self.sink.take(mv)
    }

    #[inline(always)]
    fn moves(&mut self) -> Option<&mut Vec<Move>> {
        self.sink.buffer()
    }

    #[inline(always)]
    fn raw(&mut self) -> Raw {
        self.cells.raw()
    }
}

/// A move's body on packed cells, in place.
impl<const W: usize> Host for PackedMut<'_, W> {
    #[inline(always)]
    fn get(&self, i: usize) -> i64 {
        PackedMut::get(self, i)
    }

    #[inline(always)]
    fn set(&mut self, i: usize, v: i64) -> Result<(), GameError> {
        PackedMut::set(self, i, v)
    }

    #[inline(always)]
    fn emit(&mut self, _: Move) -> bool {
        true
    }

    #[inline(always)]
    fn raw(&mut self) -> Raw {
        Raw {
            width: W as u8,
            len: self.0.len() / W,
            ptr: self.0.as_mut_ptr(),
            writable: true,
        }
    }
}

/// A move's body on unpacked cells.
pub(super) struct WideMut<'a>(pub &'a mut [i64]);

impl Host for WideMut<'_> {
    #[inline(always)]
    fn get(&self, i: usize) -> i64 {
        self.0[i]
    }

    #[inline(always)]
    fn set(&mut self, i: usize, v: i64) -> Result<(), GameError> {
        self.0[i] = v;
        Ok(())
    }

    #[inline(always)]
    fn emit(&mut self, _: Move) -> bool {
        true
    }

    #[inline(always)]
    fn raw(&mut self) -> Raw {
        // `i64`s in memory are cells of 8 bytes, little-endian on the
        // targets the compiler supports.
        Raw {
            width: 8,
            len: self.0.len(),
            ptr: self.0.as_mut_ptr().cast(),
            writable: true,
        }
    }
}

/// Frames of at most this many registers live on the stack.
const FRAME_INLINE: usize = 16;

/// Runs `f` with a zeroed frame of `n` registers: on the stack when small
/// (zeroed in blocks of a fixed size, which compile to a few stores where a
/// loop of `n` would call `memset`).
#[inline(always)]
pub(super) fn with_frame<T>(n: usize, f: impl FnOnce(&mut [i64]) -> T) -> T {
    if n <= FRAME_INLINE / 2 {
        let mut regs = [0i64; FRAME_INLINE / 2];
        f(&mut regs[..n])
    } else if n <= FRAME_INLINE {
        let mut regs = [0i64; FRAME_INLINE];
        f(&mut regs[..n])
    } else {
        f(&mut vec![0; n])
    }
}

impl Move {
    /// The move of declaration `kind` with `args`: the VM's and compiled
    /// rules' one way to make a generated move.
    #[inline(always)]
    pub(super) fn new(kind: u16, args: [i64; MAX_MOVE_ARGS]) -> Move {
        Move { kind, args }
    }
}

/// The arguments of a move from registers `0..n` of a frame of at least
/// `MAX_MOVE_ARGS`, the rest 0.
#[inline(always)]
fn move_args(regs: &[i64], n: usize) -> [i64; MAX_MOVE_ARGS] {
    let first: [i64; MAX_MOVE_ARGS] = regs[..MAX_MOVE_ARGS]
        .try_into()
        .expect("a move's frame holds its arguments");
    std::array::from_fn(|i| if i < n { first[i] } else { 0 })
}

/// Where the instruction at `ip` is, for its errors: looked up only when one happens.
#[derive(Clone, Copy)]
struct Site<'c> {
    code: &'c Code,
    ip: usize,
}

impl Site<'_> {
    #[cold]
    fn at(self) -> Span {
        self.code.spans[self.ip].at
    }

    #[cold]
    fn index(self) -> Span {
        self.code.spans[self.ip].index
    }

    #[cold]
    fn store(self) -> Span {
        self.code.spans[self.ip].store
    }
}

/// What `run` returns for a rule that emitted a move and was told to stop.
pub(super) const STOPPED: i64 = 1;

/// Runs the code from `entry` until it returns a value (`Ret`), halts (0),
/// or a generated move stops it (`STOPPED`).
#[inline(always)]
pub(super) fn run<H: Host>(
    code: &Code,
    prog: &Program,
    entry: Entry,
    host: &mut H,
    regs: &mut [i64],
    budget: &mut Budget,
) -> Result<i64, GameError> {
    if code.scratch {
        // Local lists and sets live for this call into the rules only.
        let mut host = Scratch {
            host,
            cells: Vec::new(),
        };
        run_in(code, prog, entry, &mut host, regs, budget)
    } else {
        run_in(code, prog, entry, host, regs, budget)
    }
}

/// `run` on a host that has a scratch area if the code needs one.
fn run_in<H: Host>(
    code: &Code,
    prog: &Program,
    entry: Entry,
    host: &mut H,
    regs: &mut [i64],
    budget: &mut Budget,
) -> Result<i64, GameError> {
    let ops = &code.ops[..];
    let mut ip = entry.start as usize;
    if regs.len() < entry.frame || entry.end as usize > ops.len() {
        return Err(GameError::new(
            RuntimeKind::Internal,
            "a rule ran with too few registers (a bug in gdl)",
        ));
    }
    // SAFETY (for `r!` and the instruction fetch below): `Code::check`, run
    // on every rule when it was lowered, proved that the rule's instructions
    // name only registers below `entry.frame` (at most `regs.len()`, checked
    // above) and jump only inside `entry.start..entry.end` (inside `ops`),
    // whose last instruction returns: `ip` never leaves the rule.
    macro_rules! r {
        ($r:expr) => {
            // SAFETY: see above: every register named is below `entry.frame`.
            *unsafe { regs.get_unchecked_mut($r as usize) }
        };
    }
    macro_rules! site {
        () => {
            Site { code, ip }
        };
    }
    loop {
        // SAFETY: see above: `ip` never leaves the rule, inside `ops`.
        match *unsafe { ops.get_unchecked(ip) } {
            Op::Const { dst, value } => r!(dst) = value,
            Op::Copy { dst, src } => r!(dst) = r!(src),
            Op::LoadCell { dst, cell } => r!(dst) = host.get(cell as usize),
            Op::Load { dst, addr } => r!(dst) = host.get(r!(addr) as usize),
            Op::Neg { dst, src } => r!(dst) = r!(src).checked_neg().ok_or_else(unspanned_overflow)?,
            Op::Not { dst, src } => r!(dst) = i64::from(r!(src) == 0),
            Op::Arith { op, dst, a, b } => r!(dst) = arith(op, r!(a), r!(b), site!(), Site::at)?,
            Op::ArithI { op, dst, a, imm } => {
                r!(dst) = match op {
                    ArithOp::Add => r!(a)
                        .checked_add(i64::from(imm))
                        .ok_or_else(|| overflow(site!().at()))?,
                    ArithOp::Sub => r!(a)
                        .checked_sub(i64::from(imm))
                        .ok_or_else(|| overflow(site!().at()))?,
                    op => arith(op, r!(a), i64::from(imm), site!(), Site::at)?,
                }
            }
            Op::Cmp { op, dst, a, b } => r!(dst) = i64::from(compare(op, r!(a), r!(b))),
            Op::CmpI { op, dst, a, imm } => r!(dst) = i64::from(compare(op, r!(a), i64::from(imm))),
            Op::Pick { op, dst, a, b } => {
                let (x, y) = (r!(a), r!(b));
                r!(dst) = if compare(op, x, y) { x } else { y };
            }
            Op::CellCmpI { op, dst, cell, imm } => {
                r!(dst) = i64::from(compare(op, host.get(cell as usize), i64::from(imm)));
            }
            Op::Jump { to } => {
                ip = to as usize;
                continue;
            }
            Op::JumpIfZero { x, to } => {
                if r!(x) == 0 {
                    ip = to as usize;
                    continue;
                }
            }
            Op::JumpIfNonZero { x, to } => {
                if r!(x) != 0 {
                    ip = to as usize;
                    continue;
                }
            }
            Op::JumpUnless { op, a, b, to } => {
                if !compare(op, r!(a), r!(b)) {
                    ip = to as usize;
                    continue;
                }
            }
            Op::JumpUnlessI { op, a, imm, to } => {
                if !compare(op, r!(a), i64::from(imm)) {
                    ip = to as usize;
                    continue;
                }
            }
            Op::JumpUnlessCellI { op, cell, imm, to } => {
                if !compare(op, host.get(cell as usize), i64::from(imm)) {
                    ip = to as usize;
                    continue;
                }
            }
            Op::JumpUnlessRemI { op, a, m, imm, to } => {
                if !compare(op, r!(a).rem_euclid(i64::from(m)), i64::from(imm)) {
                    ip = to as usize;
                    continue;
                }
            }
            Op::JumpUnlessCellRemI { op, cell, m, imm, to } => {
                if !compare(op, host.get(cell as usize).rem_euclid(i64::from(m)), i64::from(imm)) {
                    ip = to as usize;
                    continue;
                }
            }
            Op::Ret { src } => return Ok(r!(src)),
            Op::Halt => return Ok(0),
            Op::ElemAddr { dst, list, index, size } => {
                let base = r!(list) as usize;
                r!(dst) = element(host, base, r!(index), size, site!())? as i64;
            }
            Op::ElemAddrS { dst, list, index, size } => {
                r!(dst) = element(host, list as usize, r!(index), size, site!())? as i64;
            }
            Op::LoadElemS { dst, list, index, add } => {
                let i = plus(r!(index), add, site!())?;
                let o = element(host, list as usize, i, 1, site!())?;
                r!(dst) = host.get(o);
            }
            Op::StoreElemS {
                op,
                list,
                index,
                add,
                src,
            } => {
                let i = plus(r!(index), add, site!())?;
                let o = element(host, list as usize, i, 1, site!())?;
                let v = r!(src);
                let v = match op {
                    None => v,
                    Some(op) => arith(op, host.get(o), v, site!(), Site::store)?,
                };
                host.set(o, v)?;
            }
            Op::StoreElemSI {
                op,
                list,
                index,
                add,
                imm,
            } => {
                let i = plus(r!(index), add, site!())?;
                let o = element(host, list as usize, i, 1, site!())?;
                let v = arith(op, host.get(o), i64::from(imm), site!(), Site::store)?;
                host.set(o, v)?;
            }
            Op::StoreCell { cell, src } => host.set(cell as usize, r!(src))?,
            Op::Store { addr, src } => host.set(r!(addr) as usize, r!(src))?,
            Op::StoreArithCell { op, cell, src } => {
                let o = cell as usize;
                let v = arith(op, host.get(o), r!(src), site!(), Site::at)?;
                host.set(o, v)?;
            }
            Op::StoreArith { op, addr, src } => {
                let o = r!(addr) as usize;
                let v = arith(op, host.get(o), r!(src), site!(), Site::at)?;
                host.set(o, v)?;
            }
            Op::RangeLen { dst, lo, hi } => {
                let (lo, hi) = (r!(lo), r!(hi));
                r!(dst) = i64::try_from((i128::from(hi) - i128::from(lo) + 1).max(0)).map_err(|_| {
                    GameError::new(
                        RuntimeKind::Overflow,
                        format!("the range {lo}..{hi} has more than 2^63 numbers"),
                    )
                })?;
            }
            Op::SetCount { dst, addr, set } => {
                let o = r!(addr) as usize;
                let words = code.sets[set as usize].words as usize;
                r!(dst) = (o..o + words).map(|w| i64::from(host.get(w).count_ones() as u8)).sum();
            }
            Op::SumList { dst, addr } => r!(dst) = sum(host, r!(addr) as usize, site!())?,
            Op::SumListS { dst, list } => r!(dst) = sum(host, list as usize, site!())?,
            Op::ListHas { dst, addr, x } => {
                let (o, x) = (r!(addr) as usize, r!(x));
                let len = host.get(o) as usize;
                r!(dst) = i64::from((o + 1..o + 1 + len).any(|i| host.get(i) == x));
            }
            Op::IndexIn { dst, addr, x } => {
                let x = r!(x);
                r!(dst) = i64::from(0 <= x && x < host.get(r!(addr) as usize));
            }
            Op::SetHas { dst, addr, x, set } => {
                let bit = (r!(x) - code.sets[set as usize].lo) as usize;
                r!(dst) = host.get(r!(addr) as usize + bit / 64) >> (bit % 64) & 1;
            }
            Op::SetHasI { dst, addr, bit } => {
                let bit = bit as usize;
                r!(dst) = host.get(r!(addr) as usize + bit / 64) >> (bit % 64) & 1;
            }
            Op::SetAdd { addr, x, set } | Op::SetRemove { addr, x, set } => {
                let SetRange { lo, hi, .. } = code.sets[set as usize];
                let (o, x) = (r!(addr) as usize, r!(x));
                if x < lo || x > hi {
                    return Err(outside_set(x, lo, hi, site!().at()));
                }
                let bit = (x - lo) as usize;
                let mask = 1i64 << (bit % 64);
                let add = matches!(ops[ip], Op::SetAdd { .. });
                let w = host.get(o + bit / 64);
                host.set(o + bit / 64, if add { w | mask } else { w & !mask })?;
            }
            Op::Push { addr, x, cap } => {
                let (o, v) = (r!(addr) as usize, r!(x));
                let len = host.get(o) as usize;
                if len >= cap as usize {
                    return Err(full(cap, site!().at()));
                }
                host.set(o + 1 + len, v)?;
                host.set(o, len as i64 + 1)?;
            }
            Op::Clear { addr, words } => {
                let o = r!(addr) as usize;
                for i in o..o + words as usize {
                    host.set(i, 0)?;
                }
            }
            Op::RangeInit { var, hi, spend, to } => {
                let (lo, h) = (r!(var), r!(hi));
                check_range(lo, h)?;
                if spend {
                    budget.spend(range_len(lo, h), Span::default())?;
                }
                if lo > h {
                    ip = to as usize;
                    continue;
                }
            }
            Op::RangeNext { var, hi, to } => {
                let v = r!(var);
                if v < r!(hi) {
                    r!(var) = v + 1;
                    ip = to as usize;
                    continue;
                }
            }
            Op::CountNext { var, idx, limit, to } => {
                let i = r!(idx);
                if i >= r!(limit) {
                    ip = to as usize;
                    continue;
                }
                r!(var) = i;
                r!(idx) = i + 1;
            }
            Op::ListNext { var, idx, addr, to } => {
                let (i, o) = (r!(idx), r!(addr) as usize);
                if i >= host.get(o) {
                    ip = to as usize;
                    continue;
                }
                r!(var) = host.get(o + 1 + i as usize);
                r!(idx) = i + 1;
            }
            Op::SetNext {
                var,
                state,
                addr,
                set,
                to,
            } => {
                let SetRange { lo, words, .. } = code.sets[set as usize];
                let o = r!(addr) as usize;
                let (mut bits, mut word) = (r!(state) as u64, r!(state + 1));
                while bits == 0 {
                    word += 1;
                    if word >= i64::from(words) {
                        break;
                    }
                    bits = host.get(o + word as usize) as u64;
                }
                if bits == 0 {
                    r!(state + 1) = word;
                    ip = to as usize;
                    continue;
                }
                r!(var) = lo + word * 64 + i64::from(bits.trailing_zeros());
                r!(state) = (bits & (bits - 1)) as i64;
                r!(state + 1) = word;
            }
            Op::ItemsMark { dst } => r!(dst) = budget.items.len() as i64,
            Op::ItemsList { addr } => {
                let o = r!(addr) as usize;
                let len = host.get(o) as usize;
                budget.items.extend((o + 1..o + 1 + len).map(|i| host.get(i)));
            }
            Op::ItemsIndices { addr } => {
                let n = host.get(r!(addr) as usize);
                budget.items.extend(0..n);
            }
            Op::ItemsSet { addr, set } => {
                let SetRange { lo, words, .. } = code.sets[set as usize];
                let o = r!(addr) as usize;
                for w in 0..words as usize {
                    let mut bits = host.get(o + w) as u64;
                    while bits != 0 {
                        budget.items.push(lo + w as i64 * 64 + i64::from(bits.trailing_zeros()));
                        bits &= bits - 1;
                    }
                }
            }
            Op::ItemsPush { x } => budget.items.push(r!(x)),
            Op::ItemsNext { var, idx, to } => {
                let i = r!(idx) as usize;
                if i >= budget.items.len() {
                    ip = to as usize;
                    continue;
                }
                r!(var) = budget.items[i];
                r!(idx) = i as i64 + 1;
            }
            Op::ItemsDrop { mark } => budget.items.truncate(r!(mark) as usize),
            Op::SumAdd { acc, x } => {
                r!(acc) = r!(acc).checked_add(r!(x)).ok_or_else(|| sum_overflow(site!().at()))?;
            }
            Op::CountAdd { acc, x } => r!(acc) += i64::from(r!(x) != 0),
            Op::PickAcc { op, acc, found, x } => {
                let v = r!(x);
                if r!(found) == 0 || compare(op, v, r!(acc)) {
                    r!(acc) = v;
                }
                r!(found) = 1;
            }
            Op::NeedFound { found, max } => {
                if r!(found) == 0 {
                    return Err(empty(max, site!().at()));
                }
            }
            Op::Call { dst, func, args, n } => {
                let f = code.fns[func as usize];
                let (args, n) = (args as usize, n as usize);
                let span = site!().at();
                let v = with_frame(f.frame.max(n), |frame| {
                    frame[..n].copy_from_slice(&regs[args..args + n]);
                    if budget.depth >= MAX_CALL_DEPTH {
                        return Err(recursion(&prog.fns[func as usize].name, span));
                    }
                    budget.spend(1, span)?;
                    budget.depth += 1;
                    let mark = host.scratch_mark();
                    let v = run_in(code, prog, f, host, frame, budget);
                    host.scratch_free(mark);
                    budget.depth -= 1;
                    v
                });
                r!(dst) = v?;
            }
            Op::Choice { counter, kind } => {
                let c = r!(counter) + 1;
                if c > MAX_ARG_CHOICES {
                    return Err(too_many_moves(prog, kind as usize));
                }
                r!(counter) = c;
            }
            Op::EmitRange {
                kind,
                n,
                var,
                hi,
                counter,
            } => {
                let (lo, hi) = (r!(var), r!(hi));
                check_range(lo, hi)?;
                let n = n as usize;
                let mut args = move_args(regs, n);
                let mut c = r!(counter);
                for v in lo..=hi {
                    c += 1;
                    if c > MAX_ARG_CHOICES {
                        return Err(too_many_moves(prog, kind as usize));
                    }
                    args[n - 1] = v;
                    if host.emit(Move::new(kind, args)) {
                        return Ok(STOPPED);
                    }
                }
                r!(counter) = c;
            }
            Op::Emit { kind, n } => {
                let args = move_args(regs, n as usize);
                if host.emit(Move::new(kind, args)) {
                    return Ok(STOPPED);
                }
            }
            Op::Step => budget
                .spend(1, Span::default())
                .map_err(|_| too_many_steps(site!().at()))?,
            Op::LoadConst { dst, addr } => r!(dst) = code.consts[r!(addr) as usize],
            Op::ConstElemAddr { dst, list, index, size } => {
                let base = r!(list) as usize;
                r!(dst) = element_in(code.consts[base], base, r!(index), size, site!())? as i64;
            }
            Op::ConstListNext { var, idx, addr, to } => {
                let (i, o) = (r!(idx), r!(addr) as usize);
                if i >= code.consts[o] {
                    ip = to as usize;
                    continue;
                }
                r!(var) = code.consts[o + 1 + i as usize];
                r!(idx) = i + 1;
            }
            Op::ConstListHas { dst, addr, x } => {
                let o = r!(addr) as usize;
                let len = code.consts[o] as usize;
                r!(dst) = i64::from(code.consts[o + 1..o + 1 + len].contains(&r!(x)));
            }
            Op::ListFromItems { addr, mark, cap } => {
                let (o, m) = (r!(addr) as usize, r!(mark) as usize);
                let n = budget.items.len() - m;
                if n > cap as usize {
                    return Err(too_many_items(n, cap, site!().at()));
                }
                host.set(o, n as i64)?;
                for (k, &x) in budget.items[m..].iter().enumerate() {
                    host.set(o + 1 + k, x)?;
                }
                for k in n..cap as usize {
                    host.set(o + 1 + k, 0)?;
                }
                budget.items.truncate(m);
            }
            Op::SetFromItems { addr, mark, set } => {
                let SetRange { lo, hi, words } = code.sets[set as usize];
                let (o, m) = (r!(addr) as usize, r!(mark) as usize);
                if let Some(&x) = budget.items[m..].iter().find(|&&x| x < lo || x > hi) {
                    return Err(outside_set(x, lo, hi, site!().at()));
                }
                let mut bits = vec![0i64; words as usize];
                for &x in &budget.items[m..] {
                    let bit = (x - lo) as usize;
                    bits[bit / 64] |= 1 << (bit % 64);
                }
                for (k, &w) in bits.iter().enumerate() {
                    host.set(o + k, w)?;
                }
                budget.items.truncate(m);
            }
            Op::ItemsCmp { op, dst, a, b, sets } => {
                let (a, b) = (r!(a) as usize, r!(b) as usize);
                let order = if sets {
                    let mut x = budget.items[a..b].to_vec();
                    let mut y = budget.items[b..].to_vec();
                    for v in [&mut x, &mut y] {
                        v.sort_unstable();
                        v.dedup();
                    }
                    x.cmp(&y)
                } else {
                    budget.items[a..b].cmp(&budget.items[b..])
                };
                r!(dst) = i64::from(compare(op, order as i64, 0));
                budget.items.truncate(a);
            }
            Op::CopyCells { dst, src, n } => {
                let (d, s) = (r!(dst) as usize, r!(src) as usize);
                // Read all first: the two ranges may overlap.
                let copy: Vec<i64> = (s..s + n as usize).map(|i| host.get(i)).collect();
                for (k, v) in copy.into_iter().enumerate() {
                    host.set(d + k, v)?;
                }
            }
            Op::CopyConst { dst, src, n } => {
                let (d, s) = (r!(dst) as usize, r!(src) as usize);
                for (k, &v) in code.consts[s..s + n as usize].iter().enumerate() {
                    host.set(d + k, v)?;
                }
            }
            Op::Pop { addr, size } => {
                let o = r!(addr) as usize;
                let span = site!();
                let len = host.get(o);
                if len <= 0 {
                    return Err(pop_empty(span.at()));
                }
                remove_at(host, o, len as usize - 1, size as usize)?;
            }
            Op::RemoveAt { addr, index, size } => {
                let (o, i) = (r!(addr) as usize, r!(index));
                let span = site!();
                let len = host.get(o);
                if i < 0 || i >= len {
                    return Err(out_of_range(i, len, span.at()));
                }
                remove_at(host, o, i as usize, size as usize)?;
            }
            Op::ListRemove { addr, x } => {
                let (o, x) = (r!(addr) as usize, r!(x));
                let len = host.get(o) as usize;
                if let Some(i) = (0..len).find(|&i| host.get(o + 1 + i) == x) {
                    remove_at(host, o, i, 1)?;
                }
            }
            Op::Insert { addr, index, x, cap } => {
                let (o, i, x) = (r!(addr) as usize, r!(index), r!(x));
                let span = site!();
                let len = host.get(o);
                if len >= i64::from(cap) {
                    return Err(full(cap, span.at()));
                }
                if i < 0 || i > len {
                    return Err(insert_out_of_range(i, len, span.at()));
                }
                let (i, len) = (i as usize, len as usize);
                for k in (i..len).rev() {
                    host.set(o + 2 + k, host.get(o + 1 + k))?;
                }
                host.set(o + 1 + i, x)?;
                host.set(o, len as i64 + 1)?;
            }
            Op::Sort { addr } => {
                let o = r!(addr) as usize;
                let len = host.get(o) as usize;
                let mut elems: Vec<i64> = (0..len).map(|k| host.get(o + 1 + k)).collect();
                elems.sort_unstable();
                for (k, v) in elems.into_iter().enumerate() {
                    host.set(o + 1 + k, v)?;
                }
            }
            Op::ScratchEnter { dst, size } => r!(dst) = host.scratch_alloc(size as usize, site!().at())?,
        }
        ip += 1;
    }
}

/// `x op y`, checked; a failure points at `span(site)`.
#[inline(always)]
fn arith<'c>(op: ArithOp, x: i64, y: i64, site: Site<'c>, span: fn(Site<'c>) -> Span) -> Result<i64, GameError> {
    let v = match op {
        ArithOp::Add => x.checked_add(y),
        ArithOp::Sub => x.checked_sub(y),
        ArithOp::Mul => x.checked_mul(y),
        ArithOp::Div | ArithOp::Rem if y == 0 => return Err(division_by_zero(span(site))),
        ArithOp::Div => x.checked_div_euclid(y),
        ArithOp::Rem => x.checked_rem_euclid(y),
    };
    v.ok_or_else(|| overflow(span(site)))
}

/// `v + add` of a fused element instruction's index, checked.
#[inline(always)]
fn plus(v: i64, add: i32, site: Site) -> Result<i64, GameError> {
    v.checked_add(i64::from(add)).ok_or_else(|| overflow(site.index()))
}

/// The cell of element `i` of the list whose length cell is `base`.
#[inline(always)]
fn element<H: Host>(host: &H, base: usize, i: i64, size: u32, site: Site) -> Result<usize, GameError> {
    element_in(host.get(base), base, i, size, site)
}

/// The same, given the list's length `len`.
#[inline(always)]
fn element_in(len: i64, base: usize, i: i64, size: u32, site: Site) -> Result<usize, GameError> {
    if i < 0 || i >= len {
        return Err(out_of_range(i, len, site.at()));
    }
    Ok(base + 1 + i as usize * size as usize)
}

/// The sum of the list of scalars whose length cell is `o`.
#[inline(always)]
fn sum<H: Host>(host: &H, o: usize, site: Site) -> Result<i64, GameError> {
    let len = host.get(o) as usize;
    let mut total = 0i64;
    for i in o + 1..o + 1 + len {
        total = match total.checked_add(host.get(i)) {
            Some(t) => t,
            None => return Err(sum_overflow(site.at())),
        };
    }
    Ok(total)
}

/// A range may be gone through only if `hi - lo` is below this (compiled
/// rules check the same bound).
pub(super) const MAX_RANGE_SPAN: i64 = 1 << 20;

/// A range may be gone through only if it has at most 2^20 numbers.
#[inline(always)]
fn check_range(lo: i64, hi: i64) -> Result<(), GameError> {
    let too_long = match hi.checked_sub(lo) {
        Some(d) => d >= MAX_RANGE_SPAN,
        // Past 2^63 either way: too long if it goes up.
        None => hi > lo,
    };
    if too_long {
        return Err(range_too_long(lo, hi));
    }
    Ok(())
}

/// How many numbers `lo..=hi` holds (0 if `hi < lo`), without overflowing.
fn range_len(lo: i64, hi: i64) -> u64 {
    u64::try_from((i128::from(hi) - i128::from(lo) + 1).max(0)).unwrap_or(u64::MAX)
}

fn fault(kind: RuntimeKind, message: String, span: Span) -> GameError {
    let e = GameError::new(kind, message);
    if span == Span::default() { e } else { e.at(span.into()) }
}

#[cold]
fn range_too_long(lo: i64, hi: i64) -> GameError {
    GameError::new(
        RuntimeKind::Range,
        format!("the range {lo}..{hi} is too long to go through (at most 2^20 numbers)"),
    )
}

#[cold]
fn too_many_steps(span: Span) -> GameError {
    fault(
        RuntimeKind::Steps,
        format!("the rules took more than {MAX_STEPS} loop steps and calls for one step of the game"),
        span,
    )
    .with_help("loops nested over long ranges, or a function that calls itself more than once, take too long")
}

#[cold]
fn out_of_range(i: i64, len: i64, span: Span) -> GameError {
    fault(
        RuntimeKind::Index,
        format!(
            "index {i} is out of range: the list has {len} element{}",
            if len == 1 { "" } else { "s" }
        ),
        span,
    )
    .with_help("lists are indexed from 0 to their length - 1")
}

#[cold]
fn division_by_zero(span: Span) -> GameError {
    fault(RuntimeKind::DivisionByZero, "division by zero".into(), span)
}

#[cold]
fn overflow(span: Span) -> GameError {
    fault(RuntimeKind::Overflow, "arithmetic overflow".into(), span)
}

#[cold]
fn unspanned_overflow() -> GameError {
    GameError::new(RuntimeKind::Overflow, "arithmetic overflow")
}

#[cold]
fn sum_overflow(span: Span) -> GameError {
    fault(RuntimeKind::Overflow, "arithmetic overflow in a sum".into(), span)
}

#[cold]
fn outside_set(x: i64, lo: i64, hi: i64, span: Span) -> GameError {
    fault(
        RuntimeKind::SetRange,
        format!("{x} is outside this set's range {lo}..{hi}"),
        span,
    )
}

/// Removes element `i` (of `size` cells) of the list whose length cell is
/// `o`, the elements after it moved down and the freed cells zeroed.
fn remove_at<H: Host>(host: &mut H, o: usize, i: usize, size: usize) -> Result<(), GameError> {
    let len = host.get(o) as usize;
    let (at, end) = (o + 1 + i * size, o + 1 + len * size);
    for c in at..end - size {
        host.set(c, host.get(c + size))?;
    }
    for c in end - size..end {
        host.set(c, 0)?;
    }
    host.set(o, len as i64 - 1)
}

#[cold]
fn too_many_items(n: usize, cap: u32, span: Span) -> GameError {
    fault(
        RuntimeKind::Full,
        format!("{n} elements do not fit: the list holds at most {cap}"),
        span,
    )
    .with_help("give the list a larger capacity in its type: `list<int, N>`")
}

#[cold]
fn pop_empty(span: Span) -> GameError {
    fault(RuntimeKind::Empty, "`.pop()` of an empty list".into(), span)
}

#[cold]
fn insert_out_of_range(i: i64, len: i64, span: Span) -> GameError {
    fault(
        RuntimeKind::Index,
        format!("cannot insert at {i}: the list has {len} elements, so 0 to {len} are the places"),
        span,
    )
}

#[cold]
fn full(cap: u32, span: Span) -> GameError {
    fault(
        RuntimeKind::Full,
        format!("the list is full: it holds at most {cap} elements"),
        span,
    )
    .with_help("give the list a larger capacity in its type: `list<int, N>`")
}

#[cold]
fn empty(max: bool, span: Span) -> GameError {
    let name = if max { "max" } else { "min" };
    fault(RuntimeKind::Empty, format!("`{name}` of an empty collection"), span)
}

#[cold]
fn recursion(name: &str, span: Span) -> GameError {
    fault(
        RuntimeKind::Recursion,
        format!("`{name}` called itself {MAX_CALL_DEPTH} times deep: it does not stop"),
        span,
    )
    .with_help("a function that calls itself needs a case that does not")
}

#[cold]
pub(super) fn too_many_moves(prog: &Program, kind: usize) -> GameError {
    let mk = &prog.moves[kind];
    GameError::new(
        RuntimeKind::TooManyMoves,
        format!(
            "move `{}` has more than {MAX_ARG_CHOICES} choices of arguments in this position",
            mk.name
        ),
    )
    .at(mk.span.into())
    .with_help("narrow the collections its arguments are drawn from")
}

#[cold]
fn read_only() -> GameError {
    GameError::new(
        RuntimeKind::Internal,
        "a rule tried to change the state while it was only being read (a bug in gdl)",
    )
}
