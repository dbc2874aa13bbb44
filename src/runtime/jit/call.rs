//! The one place that calls compiled code, and the two callbacks compiled
//! code makes: every `unsafe` of the compiled executor is here.

use std::mem::ManuallyDrop;
use std::panic::{AssertUnwindSafe, catch_unwind};

use cranelift_jit::JITModule;

use super::compile::Made;
use super::{FAIL, Slow, WIDEN, bailout};
use crate::error_kind::RuntimeKind;
use crate::game::GameError;
use crate::ir::MAX_MOVE_ARGS;
use crate::ir::code::Entry;
use crate::runtime::Move;
use crate::runtime::cells::widen;
use crate::runtime::vm::{self, Budget, Host, Raw};

/// What compiled code reads its surroundings from; its layout is known to
/// `compile` through the offsets below.
#[repr(C)]
pub(in crate::runtime) struct Ctx {
    cells: *mut u8,
    budget: *mut Budget,
    host: *mut (),
    emit: usize,
    slow: usize,
    fail: i64,
    writable: i64,
    consts: *const i64,
    code: *const Slow,
    /// The caller's buffer of moves (null: none; every move goes through
    /// `emit`): compiled code writes a move at `out_len` while it is below
    /// `out_cap`, and calls `emit` when the buffer is full.
    out: *mut Move,
    out_len: usize,
    out_cap: usize,
}

impl Ctx {
    pub(super) const CELLS: i32 = std::mem::offset_of!(Ctx, cells) as i32;
    pub(super) const BUDGET: i32 = std::mem::offset_of!(Ctx, budget) as i32;
    pub(super) const EMIT: i32 = std::mem::offset_of!(Ctx, emit) as i32;
    pub(super) const SLOW: i32 = std::mem::offset_of!(Ctx, slow) as i32;
    pub(super) const FAIL: i32 = std::mem::offset_of!(Ctx, fail) as i32;
    pub(super) const WRITABLE: i32 = std::mem::offset_of!(Ctx, writable) as i32;
    pub(super) const CONSTS: i32 = std::mem::offset_of!(Ctx, consts) as i32;
    pub(super) const OUT: i32 = std::mem::offset_of!(Ctx, out) as i32;
    pub(super) const OUT_LEN: i32 = std::mem::offset_of!(Ctx, out_len) as i32;
    pub(super) const OUT_CAP: i32 = std::mem::offset_of!(Ctx, out_cap) as i32;
}

/// The layout of a [`Move`] (`repr(C)`) in the caller's buffer.
pub(super) const MOVE_SIZE: i64 = std::mem::size_of::<Move>() as i64;
pub(super) const MOVE_KIND: i32 = std::mem::offset_of!(Move, kind) as i32;
pub(super) const MOVE_ARGS: i32 = std::mem::offset_of!(Move, args) as i32;

/// Room for this many moves is made in the caller's buffer before a call,
/// so that `emit` is called only when a position has more.
const SPARE_MOVES: usize = 16;

/// The caller's buffer of moves as compiled code sees it: where, how many,
/// room for how many. Always inlined: left to the optimiser, it was a call
/// of its own in some builds and not in others (4% of a connect-four
/// playout's time).
#[inline(always)]
fn buffer<H: Host>(host: &mut H) -> (*mut Move, usize, usize) {
    match host.moves() {
        Some(v) => {
            v.reserve(SPARE_MOVES);
            (v.as_mut_ptr(), v.len(), v.capacity())
        }
        None => (std::ptr::null_mut(), 0, 0),
    }
}

/// A compiled rule: `fn(ctx, frame) -> value`. Machine code that trusts its
/// context and frame: called only through [`Calls::run`], whose callers
/// promise what it reads.
pub(in crate::runtime) type Rule = unsafe extern "C" fn(*mut Ctx, *mut i64) -> i64;

/// The machine code of one width, and each rule's function by the label it
/// starts at.
pub(in crate::runtime) struct Compiled {
    module: ManuallyDrop<JITModule>,
    by_start: Vec<Option<Rule>>,
    /// One function per `Game` call (`compile/drivers.rs`), where the game
    /// has them.
    pub turn: Option<Rule>,
    pub legal: Option<Rule>,
    pub apply: Option<Rule>,
}

// SAFETY: after `finalize_definitions` the module is never changed again:
// its code is read-only executable memory, called from any thread (each
// call has its own context and frame), and freed only in `drop`.
unsafe impl Send for Compiled {}
// SAFETY: as above: nothing in it is written after it is made.
unsafe impl Sync for Compiled {}

impl Compiled {
    /// The functions of `made`, but for those of the rules starting at
    /// `vm_only`, which the VM runs.
    pub(super) fn new(made: Made, ops: usize, vm_only: &[u32]) -> Compiled {
        let rule = |id| {
            let ptr = made.module.get_finalized_function(id);
            // SAFETY: `compile` declared every rule and driver with the
            // signature `(i64, i64) -> i64` in the platform's C calling
            // convention, which is `Rule`'s (pointers are 64 bits: checked
            // there).
            unsafe { std::mem::transmute::<*const u8, Rule>(ptr) }
        };
        let mut by_start = vec![None; ops];
        for &(start, id) in &made.funcs {
            if !vm_only.contains(&start) {
                by_start[start as usize] = Some(rule(id));
            }
        }
        let d = &made.drivers;
        let (turn, legal, apply) = (d.turn.map(rule), d.legal.map(rule), d.apply.map(rule));
        Compiled {
            module: ManuallyDrop::new(made.module),
            by_start,
            turn,
            legal,
            apply,
        }
    }

    /// The rule starting at `start`, where it is compiled.
    #[inline(always)]
    pub(in crate::runtime) fn func(&self, start: u32) -> Option<Rule> {
        self.by_start.get(start as usize).copied().flatten()
    }
}

impl Drop for Compiled {
    fn drop(&mut self) {
        // SAFETY: the function pointers into this memory live in
        // `by_start` alone, dropped with it; no call is running, as each
        // borrows `self`.
        unsafe { ManuallyDrop::take(&mut self.module).free_memory() };
    }
}

/// Calls into compiled code on one host: the context is made once, for
/// every rule that one `Game` call runs (an end test, then the next, ...).
pub(in crate::runtime) struct Calls<'h, H: Host> {
    ctx: Ctx,
    host: std::marker::PhantomData<&'h mut H>,
    budget: std::marker::PhantomData<&'h mut Budget>,
}

impl<'h, H: Host> Calls<'h, H> {
    /// A context for the cells `raw` of `host` (checked by the caller to
    /// have the length the code was compiled for), spending `budget`.
    #[inline(always)]
    pub(in crate::runtime) fn new(slow: &'h Slow, raw: Raw, host: &'h mut H, budget: &'h mut Budget) -> Calls<'h, H> {
        // Before `host` is lent to the context as a raw pointer.
        let (out, out_len, out_cap) = buffer(host);
        Calls {
            ctx: Ctx {
                cells: raw.ptr,
                budget,
                host: (host as *mut H).cast(),
                emit: emit::<H> as *const () as usize,
                slow: slow_op::<H> as *const () as usize,
                fail: 0,
                writable: i64::from(raw.writable),
                consts: slow.code.consts.as_ptr(),
                code: slow,
                out,
                out_len,
                out_cap,
            },
            host: std::marker::PhantomData,
            budget: std::marker::PhantomData,
        }
    }

    /// Runs compiled rule `f` with the registers `regs`.
    ///
    /// # Safety
    ///
    /// `f` was compiled for cells of the width and length of the `raw`
    /// given to [`Calls::new`] (as [`Jit::rules_for`](super::Jit::rules_for)
    /// gives it for them), and `regs` holds at least `f`'s frame (a rule's
    /// `Entry::frame`; one register for a driver, `MAX_MOVE_ARGS + 1` for
    /// `apply`'s): compiled code indexes both without checking.
    #[inline(always)]
    pub(in crate::runtime) unsafe fn run(&mut self, f: Rule, regs: &mut [i64]) -> Result<i64, GameError> {
        // SAFETY: compiled code reads and writes only: the `raw.len` cells
        // at `raw.ptr` (every index is checked against the length the code
        // was compiled for, which the caller checked is `raw.len`; it
        // writes only when `raw.writable`, which the host gave as a
        // `&mut`), the frame `regs` (the rule's frame, at most
        // `regs.len()`, checked by the caller; callees get frames on the
        // machine stack), the constants (indexes checked against their
        // length), the budget and the context, all alive and borrowed for
        // `'h`. The host is reached only through the callbacks below, while
        // no other reference to it is used. The width, length and frame are
        // this function's own preconditions.
        let v = unsafe { f(&mut self.ctx, regs.as_mut_ptr()) };
        // SAFETY: `ctx.host` is the `&'h mut H` lent to `new`, not used
        // elsewhere while `self` lives.
        let host = unsafe { &mut *self.ctx.host.cast::<H>() };
        if let Some(moves) = host.moves() {
            // SAFETY: the buffer holds `ctx.out_len` moves: the first ones
            // as `buffer` or the last `emit` left them, the rest written
            // whole by compiled code below `out_cap`, its capacity then.
            unsafe { moves.set_len(self.ctx.out_len) };
        }
        match self.ctx.fail {
            0 => Ok(v),
            WIDEN => Err(widen()),
            _ => Err(bailout()),
        }
    }
}

/// Runs compiled rule `f` on the cells `raw` of `host`, with the registers
/// `regs` and `budget`.
///
/// # Safety
///
/// As [`Calls::run`]: `f` compiled for `raw`'s width and length, `regs` at
/// least its frame.
#[inline]
pub(super) unsafe fn call<H: Host>(
    f: Rule,
    slow: &Slow,
    raw: Raw,
    host: &mut H,
    regs: &mut [i64],
    budget: &mut Budget,
) -> Result<i64, GameError> {
    // SAFETY: this function's own preconditions, passed on.
    unsafe { Calls::new(slow, raw, host, budget).run(f, regs) }
}

/// Compiled code gives a generated move to the host (its buffer is full, or
/// it has none): true (1) to stop.
extern "C" fn emit<H: Host>(ctx: *mut Ctx, kind: u64, args: *const i64) -> u64 {
    // SAFETY: `ctx` is the context `call` made, alive for the call; its
    // host is the `&mut H` that `call` was given, unused elsewhere while
    // compiled code runs; `args` points at `MAX_MOVE_ARGS` integers in the
    // compiled rule's frame.
    let (ctx, args) = unsafe { (&mut *ctx, *args.cast::<[i64; MAX_MOVE_ARGS]>()) };
    // SAFETY: as above.
    let host = unsafe { &mut *ctx.host.cast::<H>() };
    if let Some(moves) = host.moves() {
        // SAFETY: as after the call in `call`: the moves written in place.
        unsafe { moves.set_len(ctx.out_len) };
    }
    let stop = host.emit(Move::new(kind as u16, args));
    (ctx.out, ctx.out_len, ctx.out_cap) = buffer(host);
    u64::from(stop)
}

/// Compiled code has the VM run one instruction: its stub at `stub`, on
/// the `n` registers at `frame`. Returns 0 to go on, 1 for its jump, 2 when
/// it failed (recorded in the context).
extern "C" fn slow_op<H: Host>(ctx: *mut Ctx, stub: u64, frame: *mut i64, n: u64) -> u64 {
    // SAFETY: `ctx` is the context `call` made, alive for the call; its
    // host, budget and code are what `call` was given (the host and budget
    // unused elsewhere while compiled code runs); `frame` is the compiled
    // rule's spill slot of `n` registers.
    let (ctx, regs) = unsafe { (&mut *ctx, std::slice::from_raw_parts_mut(frame, n as usize)) };
    // SAFETY: as above.
    let (host, budget, slow) = unsafe { (&mut *ctx.host.cast::<H>(), &mut *ctx.budget, &*ctx.code) };
    let entry = Entry {
        start: stub as u32,
        end: stub as u32 + 4,
        frame: n as usize,
    };
    // A panic must not unwind into machine code: the VM redoes the call
    // and panics there, as it would have without compiled code.
    let run = catch_unwind(AssertUnwindSafe(|| {
        vm::run(&slow.code, &slow.prog, entry, host, regs, budget)
    }));
    match run {
        Ok(Ok(v)) => v as u64,
        Ok(Err(e)) if e.is(RuntimeKind::Widen) => {
            ctx.fail = WIDEN;
            2
        }
        _ => {
            ctx.fail = FAIL;
            2
        }
    }
}

/// The item stack for compiled code: its length, a push, an item (below the
/// length, checked by the caller), a truncation.
pub(super) extern "C" fn items_len(budget: *mut Budget) -> i64 {
    // SAFETY: `budget` is the `&mut Budget` that `call` was given, unused
    // elsewhere while compiled code runs (so are the three below).
    unsafe { (*budget).items_len() }
}

pub(super) extern "C" fn items_push(budget: *mut Budget, x: i64) -> i64 {
    // SAFETY: as in `items_len`.
    unsafe { (*budget).items_push(x) };
    0
}

pub(super) extern "C" fn item(budget: *mut Budget, i: i64) -> i64 {
    // SAFETY: as in `items_len`.
    unsafe { (*budget).item(i) }
}

pub(super) extern "C" fn items_truncate(budget: *mut Budget, mark: i64) -> i64 {
    // SAFETY: as in `items_len`.
    unsafe { (*budget).items_truncate(mark) };
    0
}
