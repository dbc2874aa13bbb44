//! The second executor: each game's flat code ([`Code`]) compiled to machine
//! code with Cranelift, one native function per rule, run in place of the VM
//! (`vm`), which stays the reference.
//!
//! **Errors the easy and exact way.** Compiled code builds no diagnostics.
//! Wherever the VM could fail (an index out of range, division by zero, an
//! overflow, too many steps, recursion too deep, a value outside a set, a
//! full list, a store into a state that is only read, ...) it records a
//! failure in its context and returns. The runtime then throws away what
//! the compiled call did (the state it was given is restored, see
//! `Interpreted::apply`) and runs the whole `Game` call again on the VM,
//! which produces the error with its message and span. For this to be
//! exact, compiled code must never succeed where the VM fails: it spends the
//! step budget exactly as the VM does (the same [`Budget`] in memory), and
//! checks every condition the VM checks, except where the bounds known while
//! compiling show that it holds (`bounds`). Some checks come later or sooner
//! than the VM's, never not at all: a call compiled in place takes its step
//! unchecked, and the count is checked at the next loop step, call or
//! return; a rule checks the call depth once on entry, with room for the
//! calls compiled into it. Where it fails and the VM would not (that early
//! depth check; every cell index checked against the state's length, which
//! the VM leaves to Rust's bounds checks), the VM's answer is the one
//! returned, only slower. A value too wide for the state's packed
//! cells is reported as the VM reports it (`RuntimeKind::Widen`), and the
//! move is played again on unpacked cells, compiled as well.
//!
//! **Cells in place.** A rule is compiled once per width of cells it meets
//! (four bits, 1, 2, 4 or 8 bytes; unpacked cells are 8 bytes): the width
//! of the initial state and 8 bytes when the game loads, any other when a
//! state of that width first runs; loads and stores are inline, each index
//! checked against the state's length.
//!
//! **Every instruction.** The instructions that are rare in inner loops and
//! long to write by hand (sorting, copying, removing and inserting
//! elements, filling the item stack from a collection, ...; see
//! `compile::native`) are run by the
//! VM one at a time from compiled code: the registers go to memory, the VM
//! runs a stub of that one instruction on the same host and budget, and
//! they come back. Every rule is compiled; none falls back as a whole.
//!
//! **One call per `Game` call.** In a game where one player moves at a
//! time, each width also has three drivers (`compile/drivers.rs`): `turn`,
//! `legal` and `apply` (the body, the turn passed, then the end clauses of
//! the new state), each with the rules it runs compiled into it, so that a
//! `Game` call makes one call into machine code (`runtime/fast.rs`).
//!
//! `unsafe` lives in `call` alone: the calls into compiled code and the
//! callbacks it makes.

mod bounds;
mod call;
mod compile;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use super::state::{NIBBLE, narrower_widths};
use super::vm::{Budget, Host, Raw};
use crate::error_kind::RuntimeKind;
use crate::game::GameError;
use crate::ir::Program;
use crate::ir::code::{Code, Entry, Op, OpSpans};

/// Which executor runs a game's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Machine code compiled with Cranelift when the game loads.
    Jit,
    /// The interpreter of flat code: the reference.
    Vm,
}

impl Engine {
    /// `Jit` where Cranelift supports this machine, else `Vm`.
    pub fn default_for_host() -> Engine {
        if compile::host_supported() {
            Engine::Jit
        } else {
            Engine::Vm
        }
    }

    /// Reads `jit` or `vm`.
    pub fn parse(s: &str) -> Option<Engine> {
        match s {
            "jit" => Some(Engine::Jit),
            "vm" => Some(Engine::Vm),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Engine::Jit => "jit",
            Engine::Vm => "vm",
        }
    }
}

/// What failure compiled code records (`Ctx::fail`): none, any (the VM
/// redoes the call), a value too wide for the cells.
const FAIL: i64 = 1;
const WIDEN: i64 = 2;

pub(super) use call::{Calls, Compiled, Ctx, Rule};

/// The code the VM runs for compiled rules: the game's code, then a stub
/// per instruction that compiled code leaves to the VM.
pub(super) struct Slow {
    pub code: Code,
    /// Where each instruction's stub starts (`u32::MAX`: none).
    pub stub: Vec<u32>,
    pub prog: Arc<Program>,
}

/// The stub of the instruction `op` of a rule of `frame` registers: the
/// instruction, its jump (if any) going to `Const scratch 1; Ret scratch`,
/// else `Halt`: the VM returns 1 for a jump taken (or a move that said to
/// stop) and 0 to go on.
fn stub(op: Op, at: u32, scratch: u16) -> [Op; 4] {
    let to = at + 2;
    let op = match op {
        Op::SetNext {
            var, state, addr, set, ..
        } => Op::SetNext {
            var,
            state,
            addr,
            set,
            to,
        },
        op => {
            debug_assert!(op.target().is_none(), "a stub's jump is retargeted");
            op
        }
    };
    [
        op,
        Op::Halt,
        Op::Const { dst: scratch, value: 1 },
        Op::Ret { src: scratch },
    ]
}

fn slow_code(code: &Code, prog: Arc<Program>) -> Slow {
    let mut out = code.clone();
    let mut stubs = vec![u32::MAX; code.ops.len()];
    let mut rules = code.entries();
    rules.extend(code.moves.iter().flat_map(|m| [Some(m.body), m.then]).flatten());
    rules.sort_by_key(|e| e.start);
    rules.dedup_by_key(|e| e.start);
    for e in rules {
        for (ip, &op) in code.ops.iter().enumerate().take(e.end as usize).skip(e.start as usize) {
            if compile::native(&op) || stubs[ip] != u32::MAX {
                continue;
            }
            let at = out.ops.len() as u32;
            stubs[ip] = at;
            out.ops.extend(stub(op, at, e.frame as u16));
            out.spans.push(code.spans[ip]);
            out.spans.extend([OpSpans::default(); 3]);
        }
    }
    Slow {
        code: out,
        stub: stubs,
        prog,
    }
}

/// The compiled rules of one game, per width of cells.
pub(super) struct Jit {
    slow: Arc<Slow>,
    /// The number of cells of the game's states.
    len: usize,
    /// Per width (`NIBBLE`, 1, 2, 4, 8 bytes): compiled on first use; `None`
    /// where Cranelift failed (the VM runs those).
    widths: [OnceLock<Option<Compiled>>; 5],
    /// How long compiling took (the load's widths, side by side, as the
    /// wall time they took; each width compiled later, added), how many
    /// rules, and how many drivers.
    stats: std::sync::Mutex<(Duration, usize, usize)>,
    /// How many calls compiled code handed back to the VM.
    bailouts: AtomicU64,
    /// Where the rules start that the VM runs: those with local lists or
    /// sets, and those that call them (sorted).
    vm_only: Vec<u32>,
}

/// What compiling a game's rules cost, and how they ran.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JitStats {
    /// Time spent compiling: the widths compiled at load, side by side (the
    /// wall time they took), and each width compiled since.
    pub compile_time: Duration,
    /// Rules compiled to machine code (each width holds them all).
    pub rules: usize,
    /// Drivers compiled, one per `Game` call (`turn`, `legal`, `apply`),
    /// in a width: 3 in a game where one player moves at a time, else 0.
    pub drivers: usize,
    /// Calls that compiled code handed back to the VM (every run-time
    /// error among them).
    pub bailouts: u64,
}

impl std::fmt::Debug for Jit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Jit").field("len", &self.len).finish_non_exhaustive()
    }
}

fn slot(width: u8) -> usize {
    match width {
        NIBBLE => 0,
        1 => 1,
        2 => 2,
        4 => 3,
        _ => 4,
    }
}

impl Jit {
    /// Compiles `code` for the width of the initial state.
    pub(super) fn new(code: &Code, prog: Arc<Program>, first_width: u8) -> Jit {
        let len = prog.initial.len();
        let jit = Jit {
            vm_only: vm_only(code),
            slow: Arc::new(slow_code(code, prog)),
            len,
            widths: Default::default(),
            stats: Default::default(),
            bailouts: AtomicU64::new(0),
        };
        // Unpacked cells (a move played again after a value outgrew the
        // packed width, `canonical`, simultaneous moves) are 8 bytes wide,
        // and states pack narrower as their values shrink (the 1-9 game's
        // set of free numbers, X Nimmt!'s deck): compiled now too, so that
        // no search pays for it midway (a solve's peak memory held
        // Cranelift's working memory: 866 bytes per memo entry for the
        // 1-9 game, against 105).
        let mut others: Vec<u8> = std::iter::once(8).chain(narrower_widths(len, first_width)).collect();
        others.retain(|&w| w != first_width);
        // Each width is a module of its own: compiled side by side, X
        // Nimmt!'s four take the time of one on a machine with the cores
        // (every command pays it before its first move).
        let started = Instant::now();
        std::thread::scope(|scope| {
            for &w in &others {
                let jit = &jit;
                // No thread to be had: this one compiles that width after its own.
                let _ = std::thread::Builder::new().spawn_scoped(scope, move || {
                    jit.variant(w);
                });
            }
            jit.variant(first_width);
            for &w in &others {
                jit.variant(w);
            }
        });
        // The widths added their times up; side by side, the load took this.
        if let Ok(mut s) = jit.stats.lock() {
            s.0 = started.elapsed();
        }
        jit
    }

    /// The rules compiled for `width`, compiled now if not yet.
    #[inline(always)]
    fn variant(&self, width: u8) -> Option<&Compiled> {
        match self.widths[slot(width)].get() {
            Some(done) => done.as_ref(),
            None => self.compile_width(width),
        }
    }

    #[cold]
    #[inline(never)]
    fn compile_width(&self, width: u8) -> Option<&Compiled> {
        self.widths[slot(width)]
            .get_or_init(|| {
                let t = Instant::now();
                match compile::compile(&self.slow.code, &self.slow, width, self.len, &self.vm_only) {
                    Ok(made) => {
                        let n = made.funcs.len();
                        let c = Compiled::new(made, self.slow.code.ops.len(), &self.vm_only);
                        let drivers = [c.turn, c.legal, c.apply].iter().flatten().count();
                        if let Ok(mut s) = self.stats.lock() {
                            s.0 += t.elapsed();
                            s.1 = s.1.max(n);
                            s.2 = s.2.max(drivers);
                        }
                        Some(c)
                    }
                    Err(why) => {
                        eprintln!("note: the rules could not be compiled ({why}); the VM runs them");
                        None
                    }
                }
            })
            .as_ref()
    }

    pub(super) fn stats(&self) -> JitStats {
        let (compile_time, rules, drivers) = self.stats.lock().map(|s| *s).unwrap_or_default();
        JitStats {
            compile_time,
            rules,
            drivers,
            bailouts: self.bailouts.load(Ordering::Relaxed),
        }
    }

    /// The rules compiled for the cells `raw`: `None` where the VM must run
    /// them (a state of another length, a width Cranelift failed on).
    #[inline(always)]
    pub(super) fn rules_for(&self, raw: &Raw) -> Option<&Compiled> {
        if raw.len != self.len {
            return None;
        }
        self.variant(raw.width)
    }

    /// The game's code as compiled code's calls into the VM see it.
    #[inline(always)]
    pub(super) fn slow(&self) -> &Slow {
        &self.slow
    }

    /// Counts a call handed back to the VM, where `done` says so.
    #[inline(always)]
    pub(super) fn count<T>(&self, done: &Result<T, GameError>) {
        if let Err(e) = done
            && e.is(RuntimeKind::Bailout)
        {
            self.bailouts.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Runs the rule at `entry` compiled, if it can be: `None` leaves it to
    /// the VM; an error of kind `Bailout` says to redo the whole call on the VM.
    #[inline]
    pub(super) fn run<H: Host>(
        &self,
        entry: Entry,
        host: &mut H,
        regs: &mut [i64],
        budget: &mut Budget,
    ) -> Option<Result<i64, GameError>> {
        let raw = host.raw();
        if regs.len() < entry.frame {
            return None;
        }
        let f = self.rules_for(&raw)?.func(entry.start)?;
        // SAFETY: `f` is compiled for `raw` (`rules_for`), and `regs` holds
        // its frame (checked above).
        let done = unsafe { call::call(f, &self.slow, raw, host, regs, budget) };
        self.count(&done);
        Some(done)
    }
}

/// The rules (by where they start) that use local lists or sets, whose
/// cells compiled code does not address, and those that call them: the VM
/// runs them, so compiled code never calls one.
fn vm_only(code: &Code) -> Vec<u32> {
    if !code.scratch {
        return Vec::new();
    }
    let mut rules = code.entries();
    rules.extend(code.moves.iter().flat_map(|m| [Some(m.body), m.then]).flatten());
    let ops = |e: &Entry| &code.ops[e.start as usize..e.end as usize];
    let mut out: Vec<u32> = Vec::new();
    loop {
        let before = out.len();
        for e in &rules {
            if out.contains(&e.start) {
                continue;
            }
            let uses = ops(e).iter().any(|op| match *op {
                Op::ScratchEnter { .. } => true,
                Op::Call { func, .. } => out.contains(&code.fns[func as usize].start),
                _ => false,
            });
            if uses {
                out.push(e.start);
            }
        }
        if out.len() == before {
            break;
        }
    }
    out.sort_unstable();
    out
}

/// The error that sends a call back to the VM.
#[cold]
pub(super) fn bailout() -> GameError {
    GameError::new(RuntimeKind::Bailout, "compiled rules left this call to the VM")
}
