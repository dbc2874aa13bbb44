//! Flat code to Cranelift IR: one native function per rule, for cells of one
//! width. Safe code only: what it makes is called from `call`. Over 1,200
//! lines and kept whole, on purpose: one match, arm for arm the twin of
//! `vm.rs` (see below).
//!
//! A rule's registers become Cranelift variables (SSA values in machine
//! registers), loaded from the frame the caller passes and stored back where
//! the caller reads them after (move bodies). Cells are read and written in
//! place at the width the function is compiled for, each index checked
//! against the state's length. Every failure jumps to one block that records
//! it in the context and returns: the caller runs the call again on the VM.
//!
//! Still long, and kept whole: it is one match over the flat code's
//! instructions, each arm the machine-code twin of the same arm in `vm.rs`,
//! and reading the two side by side is how they are kept equal. The values
//! those arms compute (folding, bounds, checked arithmetic, cells, the
//! budget) are in `compile/values.rs`; the functions that run several
//! rules for one `Game` call, translated with the same `Translator`, in
//! `compile/drivers.rs`.

use std::collections::{HashMap, HashSet};

use cranelift_codegen::ir::condcodes::{CondCode, IntCC};
use cranelift_codegen::ir::types::{I16, I64};
use cranelift_codegen::ir::{
    AbiParam, Block, FuncRef, InstBuilder, MemFlags, SigRef, Signature, StackSlotData, StackSlotKind, UserFuncName,
    Value,
};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{FuncId, Linkage, Module};

use super::bounds::{Bounds, ValueBounds, given, stepped_loop};
use super::call::{MOVE_ARGS, MOVE_KIND, MOVE_SIZE};
use super::{Ctx, FAIL, Slow, WIDEN};
use crate::ir::code::{Code, Entry, Op};
use crate::ir::{CmpOp, MAX_MOVE_ARGS};
use crate::runtime::vm::{DEPTH_AT, MAX_ARG_CHOICES, MAX_CALL_DEPTH, STEPS_AT, STOPPED};

mod drivers;
mod values;

pub(super) use drivers::Drivers;
use drivers::Kind;

/// What compiling one width made: the module that owns the code, and each
/// rule's function by the label it starts at.
pub(super) struct Made {
    pub module: JITModule,
    pub funcs: Vec<(u32, FuncId)>,
    pub drivers: Drivers,
}

/// Whether Cranelift can make code for this machine.
pub(super) fn host_supported() -> bool {
    cranelift_native::builder().is_ok()
}

fn new_module() -> Result<JITModule, String> {
    let mut flags = settings::builder();
    let set = |flags: &mut settings::Builder, k: &str, v: &str| flags.set(k, v).map_err(|e| e.to_string());
    set(&mut flags, "use_colocated_libcalls", "false")?;
    set(&mut flags, "is_pic", "false")?;
    set(&mut flags, "opt_level", "speed")?;
    set(
        &mut flags,
        "enable_verifier",
        if cfg!(debug_assertions) { "true" } else { "false" },
    )?;
    let isa = cranelift_native::builder()
        .map_err(|e| e.to_string())?
        .finish(settings::Flags::new(flags))
        .map_err(|e| e.to_string())?;
    Ok(JITModule::new(JITBuilder::with_isa(
        isa,
        cranelift_module::default_libcall_names(),
    )))
}

/// Compiles every rule of `code` for `len` cells packed at `width`.
/// `vm_only`: the rules the VM runs (none is compiled into a driver).
/// The functions that code starting at `roots` may call, directly or from
/// the functions it calls.
fn reachable_calls(code: &Code, roots: &[Entry]) -> Vec<Entry> {
    let mut seen = vec![false; code.fns.len()];
    let mut todo = roots.to_vec();
    let mut out = Vec::new();
    while let Some(e) = todo.pop() {
        for op in &code.ops[e.start as usize..e.end as usize] {
            if let Op::Call { func, .. } = *op
                && !std::mem::replace(&mut seen[func as usize], true)
            {
                out.push(code.fns[func as usize]);
                todo.push(code.fns[func as usize]);
            }
        }
    }
    out
}

/// The most instructions of flat code a driver compiles in place (its
/// rules', not counting the functions they call). The bundled games' largest
/// is 326 (checkers' `apply`); a file of 2,000 one-line move kinds made a
/// `legal` of 10,000, which took Cranelift 840 MB and 8 s, and one of 500
/// kinds a `legal` of 2,500 (74 MB).
const MAX_DRIVER_OPS: usize = 1000;

pub(super) fn compile(code: &Code, slow: &Slow, width: u8, len: usize, vm_only: &[u32]) -> Result<Made, String> {
    let mut module = new_module()?;
    let ptr = module.target_config().pointer_type();
    if ptr != I64 {
        return Err("compiled rules need 64-bit pointers".into());
    }
    let mut sig = module.make_signature();
    sig.params.push(AbiParam::new(I64));
    sig.params.push(AbiParam::new(I64));
    sig.returns.push(AbiParam::new(I64));

    // Each rule once, by where it starts; bodies keep their registers.
    let mut rules: Vec<(Entry, bool)> = Vec::new();
    let mut seen: HashMap<u32, usize> = HashMap::new();
    let mut add = |e: Entry, keep: bool, rules: &mut Vec<(Entry, bool)>| match seen.get(&e.start) {
        Some(&i) => rules[i].1 |= keep,
        None => {
            seen.insert(e.start, rules.len());
            rules.push((e, keep));
        }
    };
    for e in code.entries() {
        add(e, false, &mut rules);
    }
    for m in &code.moves {
        add(m.body, true, &mut rules);
        if let Some(t) = m.then {
            add(t, true, &mut rules);
        }
    }
    // Functions called from compiled code take their arguments in machine
    // registers (`(ctx, a0, ..) -> value`): no frame in memory to fill.
    let mut arity: HashMap<u32, Option<u16>> = HashMap::new();
    for op in &code.ops {
        if let Op::Call { func, n, .. } = *op {
            let start = code.fns[func as usize].start;
            let a = arity.entry(start).or_insert(Some(n));
            if *a != Some(n) {
                *a = None;
            }
        }
    }
    let mut direct: HashMap<u32, (FuncId, u16)> = HashMap::new();
    for f in &code.fns {
        if let Some(&Some(n)) = arity.get(&f.start)
            && !direct.contains_key(&f.start)
        {
            let id = module
                .declare_function(&format!("direct{}", f.start), Linkage::Local, &direct_sig(&module, n))
                .map_err(|e| e.to_string())?;
            direct.insert(f.start, (id, n));
        }
    }
    // A function that compiled code calls with its arguments in registers
    // needs no rule of its own unless the runtime calls it (`canonical`,
    // `evaluate`): most are compiled in place into their callers.
    let prog = &slow.prog;
    let from_runtime: Vec<u32> = prog
        .canonical
        .into_iter()
        .chain(prog.fns.iter().position(|f| f.name == crate::compile::EVALUATE))
        .map(|f| code.fns[f].start)
        .collect();
    let fn_starts: Vec<u32> = code.fns.iter().map(|f| f.start).collect();
    rules.retain(|(e, _)| {
        !(fn_starts.contains(&e.start) && direct.contains_key(&e.start) && !from_runtime.contains(&e.start))
    });
    let mut ids = HashMap::new();
    let mut funcs = Vec::new();
    for (e, _) in &rules {
        let id = module
            .declare_function(&format!("rule{}", e.start), Linkage::Local, &sig)
            .map_err(|e| e.to_string())?;
        ids.insert(e.start, id);
        funcs.push((e.start, id));
    }
    // Each function to make: a rule (and whether it keeps its registers), a
    // function's second entry (made as calls to it are found: a call
    // compiled in place needs none), or a driver.
    enum Body {
        Rule(Entry, bool),
        Direct(Entry, FuncId, u16),
        Driver(Kind, FuncId),
    }
    let mut bodies: Vec<Body> = rules.iter().map(|&(e, k)| Body::Rule(e, k)).collect();
    let mut drivers = Drivers::default();
    for kind in drivers::kinds(prog) {
        let parts = kind.parts(code);
        if parts.iter().any(|e| vm_only.contains(&e.start)) {
            continue;
        }
        // Cranelift's time and memory grow faster than a function's size:
        // past this, each rule is called on its own (the same answers).
        if parts.iter().map(|e| (e.end - e.start) as usize).sum::<usize>() > MAX_DRIVER_OPS {
            continue;
        }
        let id = module
            .declare_function(kind.name(), Linkage::Local, &sig)
            .map_err(|e| e.to_string())?;
        *drivers.slot(kind) = Some(id);
        bodies.push(Body::Driver(kind, id));
    }
    let mut made_direct: Vec<u32> = Vec::new();
    let mut ctx = module.make_context();
    let mut fctx = FunctionBuilderContext::new();
    // `GDL_JIT_DUMP=1` prints each function's machine code, to read a profile by.
    let dump = std::env::var_os("GDL_JIT_DUMP").is_some();
    ctx.set_disasm(dump);
    let mut dumped: Vec<(String, FuncId)> = Vec::new();
    while let Some(body) = bodies.pop() {
        let (id, name) = match &body {
            Body::Rule(e, _) => (ids[&e.start], format!("rule{}", e.start)),
            Body::Direct(f, id, _) => (*id, format!("direct{}", f.start)),
            Body::Driver(kind, id) => (*id, format!("driver {}", kind.name())),
        };
        ctx.func.signature = match &body {
            Body::Direct(_, _, n) => direct_sig(&module, *n),
            _ => sig.clone(),
        };
        ctx.func.name = UserFuncName::user(0, id.as_u32());
        {
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
            let mut refs = HashMap::new();
            // Only the functions this body may reach: declaring every one in
            // every body cost time quadratic in the number of functions.
            let roots = match &body {
                Body::Rule(e, _) | Body::Direct(e, _, _) => vec![*e],
                Body::Driver(kind, _) => kind.parts(code),
            };
            for f in reachable_calls(code, &roots) {
                if refs.contains_key(&f.start) {
                    continue;
                }
                let r = match direct.get(&f.start) {
                    Some(&(d, n)) => (module.declare_func_in_func(d, b.func), Some(n)),
                    None => (module.declare_func_in_func(ids[&f.start], b.func), None),
                };
                // Called through an absolute address, not a 32-bit
                // PC-relative offset: each function gets memory of its own,
                // and on a busy 16-core machine two of them landed over
                // 2 GiB apart, where cranelift-jit's relocation panicked
                // (`TryFromIntError`, fuzz seed 22).
                b.func.dfg.ext_funcs[r.0].colocated = false;
                refs.insert(f.start, r);
            }
            let helper = {
                let mut s = Signature::new(module.isa().default_call_conv());
                for _ in 0..3 {
                    s.params.push(AbiParam::new(I64));
                }
                s.returns.push(AbiParam::new(I64));
                b.import_signature(s)
            };
            let slow_sig = {
                let mut s = Signature::new(module.isa().default_call_conv());
                for _ in 0..4 {
                    s.params.push(AbiParam::new(I64));
                }
                s.returns.push(AbiParam::new(I64));
                b.import_signature(s)
            };
            let env = Env {
                code,
                slow,
                width,
                len: len as i64,
                refs: &refs,
                helper,
                slow_sig,
            };
            let called = match body {
                Body::Rule(e, keep) => Translator::build(&mut b, env, e, keep, None),
                Body::Direct(f, _, n) => Translator::build(&mut b, env, f, false, Some(n)),
                Body::Driver(kind, _) => drivers::build(kind, &mut b, env),
            };
            b.seal_all_blocks();
            b.finalize();
            for start in called {
                if !made_direct.contains(&start) {
                    made_direct.push(start);
                    let f = *code.fns.iter().find(|f| f.start == start).expect("a called function");
                    let (id, n) = direct[&start];
                    bodies.push(Body::Direct(f, id, n));
                }
            }
        }
        module.define_function(id, &mut ctx).map_err(|e| format!("{e:?}"))?;
        if dump && let Some(c) = ctx.compiled_code() {
            eprintln!("== {name} (width {width})\n{}", c.vcode.as_deref().unwrap_or(""));
            dumped.push((name, id));
        }
        module.clear_context(&mut ctx);
        ctx.set_disasm(dump);
    }
    module.finalize_definitions().map_err(|e| e.to_string())?;
    for (name, id) in dumped {
        eprintln!("== {name} at {:p}", module.get_finalized_function(id));
    }
    Ok(Made { module, funcs, drivers })
}

/// `(ctx, depth, steps, a0, .., a(n-1)) -> (value, steps)`: a function
/// called with its arguments, the call depth and the steps left in
/// registers, which gives back the steps it left.
fn direct_sig(module: &JITModule, n: u16) -> Signature {
    let mut sig = module.make_signature();
    for _ in 0..n + 3 {
        sig.params.push(AbiParam::new(I64));
    }
    sig.returns.push(AbiParam::new(I64));
    sig.returns.push(AbiParam::new(I64));
    sig
}

/// Cranelift's condition for a comparison of the language.
fn cc(op: CmpOp) -> IntCC {
    match op {
        CmpOp::Eq => IntCC::Equal,
        CmpOp::Ne => IntCC::NotEqual,
        CmpOp::Lt => IntCC::SignedLessThan,
        CmpOp::Le => IntCC::SignedLessThanOrEqual,
        CmpOp::Gt => IntCC::SignedGreaterThan,
        CmpOp::Ge => IntCC::SignedGreaterThanOrEqual,
    }
}

/// Whether an instruction is compiled to machine code; the others run in
/// the VM, one instruction at a time, from compiled code (`Slow`).
pub(super) fn native(op: &Op) -> bool {
    !matches!(
        op,
        Op::RangeLen { .. }
            | Op::ItemsList { .. }
            | Op::ItemsIndices { .. }
            | Op::ItemsSet { .. }
            | Op::ConstListHas { .. }
            | Op::ListFromItems { .. }
            | Op::SetFromItems { .. }
            | Op::ItemsCmp { .. }
            | Op::CopyCells { .. }
            | Op::CopyConst { .. }
            | Op::Pop { .. }
            | Op::RemoveAt { .. }
            | Op::ListRemove { .. }
            | Op::Insert { .. }
            | Op::Sort { .. }
            | Op::ScratchEnter { .. }
    )
}

const FLAGS: MemFlags = MemFlags::trusted();
/// For memory that no call changes while it runs (the context's pointers,
/// the frame as the rule starts): Cranelift may drop such a load when its
/// value is unused, and merge two of them.
const FIXED: MemFlags = MemFlags::trusted().with_readonly().with_can_move();

/// One rule being translated.
struct Translator<'a, 'b> {
    b: &'a mut FunctionBuilder<'b>,
    code: &'a Code,
    regs: Vec<Variable>,
    ctx: Value,
    /// The frame the caller passed (`None`: arguments came in registers).
    frame: Option<Value>,
    cells: Value,
    writable: Value,
    /// The steps left and the call depth (see `build`).
    steps: Variable,
    depth: Variable,
    width: u8,
    len: i64,
    keep: bool,
    /// Records a failure for the VM to redo, and returns.
    fail: Block,
    /// Records a value too wide for the cells, and returns.
    widen: Block,
    /// Returns after a callee failed (its failure already recorded).
    failed: Block,
    /// Returns `STOPPED`: the sink took a move and said to stop.
    stopped: Block,
    /// A frame for callees, a move's arguments, a frame for the VM.
    callee: cranelift_codegen::ir::StackSlot,
    args: cranelift_codegen::ir::StackSlot,
    spill: cranelift_codegen::ir::StackSlot,
    spill_len: usize,
    /// Each function: how to call it, and its arity where it takes its
    /// arguments in registers.
    refs: &'a HashMap<u32, (FuncRef, Option<u16>)>,
    helper: SigRef,
    slow_sig: SigRef,
    /// `(i64) -> i64` and `(i64, i64) -> i64`, for the item stack's helpers.
    items_sig: (SigRef, SigRef),
    slow: &'a Slow,
    /// Where a `Ret` goes while a function is compiled in place: the block
    /// after the call, and the variable for its value.
    ret_to: Option<(Block, Variable)>,
    /// The functions being compiled in place, innermost last, after the
    /// rule's own start: none more than `UNROLL` times.
    inlining: Vec<u32>,
    /// Instructions compiled in place so far in this rule.
    inlined: usize,
    /// The functions this rule calls with their arguments in registers.
    calls: Vec<u32>,
    /// What is known of the values' bounds, to leave out checks that pass.
    bounds: ValueBounds,
    /// Whether the rule calls functions: only then can its step count go
    /// below 0 (`spend_unchecked`) or its depth need checking.
    calls_any: bool,
    /// The instruction being translated, and the function it is in.
    ip: usize,
    fn_start: usize,
    fn_end: usize,
    /// Range loops whose variable stays in its range (`stepped_loop`): the
    /// variable, its bounds, and the instructions of the loop's body.
    loops: Vec<(Variable, Bounds, std::ops::RangeInclusive<usize>)>,
    /// Bounds that hold only in `facts_block` and the blocks reached from
    /// it alone: those of a comparison on the path taken there.
    facts: Vec<(Value, Bounds)>,
    facts_block: Option<Block>,
}

/// Calls compiled in place (a call costs about 40 instructions: the frame,
/// five saved registers, the context reloaded, the failure checked) only
/// of functions of at most this many instructions, this many calls deep,
/// and this many instructions in all per rule, to bound compile time.
const MAX_INLINE_OPS: usize = 64;
const MAX_INLINE_DEPTH: usize = 6;
const MAX_INLINED_PER_RULE: usize = 1024;
/// A recursive function is compiled into itself once: connect four's `run`
/// then makes a call only for a line of three or more (a call per move
/// fewer in random play: 3.5% of a playout's instructions).
const UNROLL: usize = 2;

/// What a function being made is compiled with: the module's references,
/// the width and the length of the cells.
#[derive(Clone, Copy)]
struct Env<'a> {
    code: &'a Code,
    slow: &'a Slow,
    width: u8,
    len: i64,
    refs: &'a HashMap<u32, (FuncRef, Option<u16>)>,
    helper: SigRef,
    slow_sig: SigRef,
}

impl<'a, 'b> Translator<'a, 'b> {
    /// The function of the rule `entry`.
    fn build(b: &'a mut FunctionBuilder<'b>, env: Env<'a>, entry: Entry, keep: bool, direct: Option<u16>) -> Vec<u32> {
        let mut r = Translator::new(b, env, entry, &[entry], keep, direct);
        r.inlining.push(entry.start);
        r.body(entry.start as usize, entry.end as usize);
        r.finish()
    }

    /// A function with the frame of `entry` (its registers, loaded from the
    /// frame the caller passes unless `direct` says they come in machine
    /// registers), for the instructions of `parts` (its own, or those a
    /// driver compiles in place), in its first block.
    fn new(
        b: &'a mut FunctionBuilder<'b>,
        env: Env<'a>,
        entry: Entry,
        parts: &[Entry],
        keep: bool,
        direct: Option<u16>,
    ) -> Translator<'a, 'b> {
        let Env {
            code,
            slow,
            width,
            len,
            refs,
            helper,
            slow_sig,
        } = env;
        let ops = || parts.iter().flat_map(|e| &code.ops[e.start as usize..e.end as usize]);
        let top = b.create_block();
        b.append_block_params_for_function_params(top);
        b.switch_to_block(top);
        let params = b.block_params(top).to_vec();
        let ctx = params[0];
        let frame = if direct.is_none() { Some(params[1]) } else { None };
        let cells = b.ins().load(I64, FIXED, ctx, Ctx::CELLS);
        let budget = b.ins().load(I64, FIXED, ctx, Ctx::BUDGET);
        let writable = b.ins().load(I64, FIXED, ctx, Ctx::WRITABLE);
        // The steps left and the call depth live in registers: a rule the
        // runtime calls reads them from the budget and writes them back as
        // it returns (and before anything else reads them: a call to a rule,
        // the VM); a function called with its arguments in registers gets
        // them the same way. A failure writes nothing back: the VM redoes
        // the whole call with a budget of its own.
        let (steps, depth) = (b.declare_var(I64), b.declare_var(I64));
        let (s0, d0) = match direct {
            None => (
                b.ins().load(I64, FLAGS, budget, STEPS_AT as i32),
                b.ins().load(I64, FLAGS, budget, DEPTH_AT as i32),
            ),
            Some(_) => (params[2], params[1]),
        };
        b.def_var(steps, s0);
        b.def_var(depth, d0);
        let regs: Vec<Variable> = (0..entry.frame).map(|_| b.declare_var(I64)).collect();
        for (i, &v) in regs.iter().enumerate() {
            let x = match (frame, direct) {
                (Some(frame), _) => b.ins().load(I64, FIXED, frame, (i * 8) as i32),
                // As the VM's frame: the arguments, the rest 0.
                (None, Some(n)) if i < n as usize => params[3 + i],
                _ => b.ins().iconst(I64, 0),
            };
            b.def_var(v, x);
        }
        let callee_len = code.fns.iter().map(|f| f.frame).max().unwrap_or(0).max(
            ops()
                .map(|op| if let Op::Call { n, .. } = op { *n as usize } else { 0 })
                .max()
                .unwrap_or(0),
        );
        let slot = |b: &mut FunctionBuilder, words: usize| {
            b.create_sized_stack_slot(StackSlotData::new(
                StackSlotKind::ExplicitSlot,
                (words.max(1) * 8) as u32,
                3,
            ))
        };
        // The VM's stub of an instruction uses the register after its rule's.
        let spill_len = parts.iter().map(|e| e.frame + 1).max().unwrap_or(1).max(MAX_MOVE_ARGS);
        let callee = slot(b, callee_len);
        let args = slot(b, MAX_MOVE_ARGS);
        let spill = slot(b, spill_len);
        let items_sig = {
            let mut one = Signature::new(b.func.signature.call_conv);
            one.params.push(AbiParam::new(I64));
            one.returns.push(AbiParam::new(I64));
            let mut two = one.clone();
            two.params.push(AbiParam::new(I64));
            (b.import_signature(one), b.import_signature(two))
        };
        let fail = b.create_block();
        let widen = b.create_block();
        let failed = b.create_block();
        let stopped = b.create_block();
        let mut r = Translator {
            b,
            code,
            regs,
            ctx,
            frame,
            cells,
            writable,
            steps,
            depth,
            width,
            len,
            keep,
            fail,
            widen,
            failed,
            stopped,
            callee,
            args,
            spill,
            spill_len,
            refs,
            helper,
            slow_sig,
            items_sig,
            slow,
            ret_to: None,
            inlining: Vec::new(),
            inlined: 0,
            calls: Vec::new(),
            bounds: ValueBounds::default(),
            calls_any: ops().any(|op| matches!(op, Op::Call { .. })),
            ip: entry.start as usize,
            fn_start: entry.start as usize,
            fn_end: entry.end as usize,
            loops: Vec::new(),
            facts: Vec::new(),
            facts_block: None,
        };
        // The call depth is checked once here, for every call this rule
        // makes from the functions compiled into it (at most
        // `MAX_INLINE_DEPTH` deep): a rule entered too deep for them fails
        // and the VM decides, a little before the VM itself would fail.
        // A rule without calls needs neither.
        if r.calls_any {
            let room = MAX_CALL_DEPTH as i64 - MAX_INLINE_DEPTH as i64;
            r.check_below(d0, room);
            r.bounds.note(d0, Bounds { lo: 0, hi: room - 1 });
        }
        r
    }

    /// Fills the blocks every way out of the function goes through; gives
    /// the functions it calls with their arguments in registers.
    fn finish(mut self) -> Vec<u32> {
        let r = &mut self;
        for (blk, code) in [(r.fail, FAIL), (r.widen, WIDEN)] {
            r.b.switch_to_block(blk);
            let c = r.b.ins().iconst(I64, code);
            r.b.ins().store(FLAGS, c, r.ctx, Ctx::FAIL);
            let zero = r.b.ins().iconst(I64, 0);
            r.leave(zero, false);
        }
        r.b.switch_to_block(r.failed);
        let zero = r.b.ins().iconst(I64, 0);
        r.leave(zero, false);
        r.b.switch_to_block(r.stopped);
        let one = r.b.ins().iconst(I64, STOPPED);
        r.leave(one, true);
        std::mem::take(&mut r.calls)
    }

    /// Returns `v`: with the steps left where called with its arguments in
    /// registers, else after writing the budget back where it succeeded.
    fn leave(&mut self, v: Value, ok: bool) {
        if self.frame.is_none() {
            let s = self.b.use_var(self.steps);
            self.b.ins().return_(&[v, s]);
            return;
        }
        if ok {
            // The budget's depth is as the runtime gave it (see `sync_budget`).
            let s = self.steps_left();
            let budget = self.budget_ptr();
            self.b.ins().store(FLAGS, s, budget, STEPS_AT as i32);
        }
        self.b.ins().return_(&[v]);
    }

    /// The budget, read from the context again where it is needed rather
    /// than kept in a register through the rule (a loop with a call in it
    /// has few registers to spare).
    fn budget_ptr(&mut self) -> Value {
        self.b.ins().load(I64, FLAGS, self.ctx, Ctx::BUDGET)
    }

    /// Writes the steps left to the budget, for what spends them there (a
    /// rule called through its frame, the VM), and the call depth `depth`
    /// for a rule called so; gives the depth the budget held before, for
    /// `reload_steps` to put back. The budget's depth is otherwise left as
    /// the runtime gave it, all through a call into compiled code: only
    /// `Call` reads it, and the VM's stubs make no calls.
    fn sync_budget(&mut self, depth: Option<Value>) -> Option<Value> {
        let s = self.steps_left();
        let budget = self.budget_ptr();
        self.b.ins().store(FLAGS, s, budget, STEPS_AT as i32);
        depth.map(|d| {
            let before = self.b.ins().load(I64, FLAGS, budget, DEPTH_AT as i32);
            self.b.ins().store(FLAGS, d, budget, DEPTH_AT as i32);
            before
        })
    }

    /// Reads the steps left back from the budget, after what spent them
    /// there, and puts back the depth `sync_budget` found there.
    fn reload_steps(&mut self, depth: Option<Value>) {
        let budget = self.budget_ptr();
        let s = self.b.ins().load(I64, FLAGS, budget, STEPS_AT as i32);
        self.b.def_var(self.steps, s);
        if let Some(d) = depth {
            self.b.ins().store(FLAGS, d, budget, DEPTH_AT as i32);
        }
    }

    /// Translates the instructions `start..end`, from the current block.
    fn body(&mut self, start: usize, end: usize) {
        let outer = (self.fn_start, self.fn_end);
        (self.fn_start, self.fn_end) = (start, end);
        self.translate(start, end);
        (self.fn_start, self.fn_end) = outer;
    }

    fn translate(&mut self, start: usize, end: usize) {
        // A block at each jump target and after each jump.
        let mut blocks: HashMap<usize, Block> = HashMap::new();
        for ip in start..end {
            let op = &self.code.ops[ip];
            let ends = op.target().is_some() || matches!(op, Op::Ret { .. } | Op::Halt);
            if let Some(t) = op.target() {
                blocks.entry(t as usize).or_insert_with(|| self.b.create_block());
            }
            if ends && ip + 1 < end {
                blocks.entry(ip + 1).or_insert_with(|| self.b.create_block());
            }
        }
        // A block that no jump reaches from itself or after it (no loop
        // comes back to it) has all its predecessors translated when it is
        // reached: sealed then, so that the registers' values, constants
        // among them, flow into it while translating.
        let looped: HashSet<usize> = (start..end)
            .filter_map(|ip| self.code.ops[ip].target().map(|t| t as usize).filter(|&t| t <= ip))
            .collect();
        // Where jumps land; and after a jump on zero, where `goto` may land
        // past it.
        let targets: HashSet<usize> = (start..end)
            .flat_map(|ip| {
                let op = self.code.ops[ip];
                let past = matches!(op, Op::JumpIfZero { .. } | Op::JumpIfNonZero { .. }).then_some(ip + 1);
                op.target().map(|t| t as usize).into_iter().chain(past)
            })
            .collect();
        let first = *blocks.entry(start).or_insert_with(|| self.b.create_block());
        self.b.ins().jump(first, &[]);
        let mut open = false;
        for ip in start..end {
            if let Some(&blk) = blocks.get(&ip) {
                let from = self.b.current_block();
                if open {
                    self.goto(&blocks, ip, ip - 1);
                }
                self.b.switch_to_block(blk);
                // Reached only from the instruction before.
                if open && !targets.contains(&ip) {
                    self.carry_facts(from, blk);
                }
                if !looped.contains(&ip) {
                    self.b.seal_block(blk);
                }
                open = true;
            }
            // Code no jump reaches (after a check known to fail, or a
            // branch known to be taken) is not translated: jumping on from
            // it would merge its registers, undefined there, into the code
            // that runs, and hide their values (constants, bounds) there.
            if !open || self.b.is_unreachable() {
                open = false;
                continue;
            }
            open = self.op(ip, &blocks);
            if open && self.b.is_unreachable() {
                self.b.ins().jump(self.fail, &[]);
                open = false;
            }
        }
        if open {
            self.b.ins().jump(self.fail, &[]);
        }
    }

    /// Whether a call to `f` is compiled in place: a function compiled here
    /// fewer than `UNROLL` times already (so recursion becomes a call),
    /// small, not nested too deep, and with no instruction left to the VM
    /// (whose frame in memory is the rule's own).
    fn can_inline(&self, f: Entry) -> bool {
        let ops = &self.code.ops[f.start as usize..f.end as usize];
        self.inlining.iter().filter(|&&s| s == f.start).count() < UNROLL
            && self.inlining.len() <= MAX_INLINE_DEPTH
            && ops.len() <= MAX_INLINE_OPS
            && self.inlined + ops.len() <= MAX_INLINED_PER_RULE
            && ops.iter().all(native)
    }

    /// A call to `f` compiled in place, with the arguments `vals`: its
    /// registers are fresh variables, and its `Ret` comes back here with
    /// the value. Any failure inside leaves the whole rule, as a failed
    /// call would.
    fn inline_call(&mut self, f: Entry, vals: &[Value]) -> Value {
        let vars: Vec<Variable> = (0..f.frame).map(|_| self.b.declare_var(I64)).collect();
        for (i, &var) in vars.iter().enumerate() {
            let x = match vals.get(i) {
                Some(&v) => v,
                None => self.iconst(0),
            };
            self.b.def_var(var, x);
        }
        let (after, result) = (self.b.create_block(), self.b.declare_var(I64));
        let regs = std::mem::replace(&mut self.regs, vars);
        let ret_to = self.ret_to.replace((after, result));
        self.inlining.push(f.start);
        self.inlined += (f.end - f.start) as usize;
        self.body(f.start as usize, f.end as usize);
        self.inlining.pop();
        self.ret_to = ret_to;
        self.regs = regs;
        self.b.switch_to_block(after);
        // Every `Ret` of the body jumped here already.
        self.b.seal_block(after);
        self.b.use_var(result)
    }

    fn get(&mut self, r: u16) -> Value {
        let var = self.regs[r as usize];
        let v = self.b.use_var(var);
        // Inside a range loop its variable is within the range.
        if let Some((_, s, body)) = self.loops.iter().rev().find(|l| l.0 == var)
            && body.contains(&self.ip)
        {
            // What holds wherever `v` is, not what holds here alone.
            let v = self.b.func.dfg.resolve_aliases(v);
            let s = self.bounds.get(v).meet(*s);
            self.bounds.note(v, s);
        }
        v
    }

    fn set(&mut self, r: u16, v: Value) {
        self.b.def_var(self.regs[r as usize], v);
    }

    fn iconst(&mut self, v: i64) -> Value {
        self.b.ins().iconst(I64, v)
    }

    fn jump_to(&mut self, blocks: &HashMap<usize, Block>, to: u32) -> Block {
        blocks[&(to as usize)]
    }

    /// Goes to the instruction `to` from the block ending at `here`. Where
    /// `to` only tests a register (`JumpIfZero`, `JumpIfNonZero`: the end of
    /// an `and` or `or` whose value the next instruction branches on) and
    /// both its ways lie ahead, the test is made here instead, on this
    /// path's value of the register: a constant (`const r = 0` before it)
    /// then decides it while translating. The tests of an `and` then
    /// follow one another with nothing joining them, so that what the
    /// first checked and loaded, Cranelift finds again in the next.
    fn goto(&mut self, blocks: &HashMap<usize, Block>, to: usize, here: usize) {
        let direct = blocks[&to];
        let (x, taken, on_zero) = match self.code.ops.get(to) {
            Some(&Op::JumpIfZero { x, to: t }) => (x, t as usize, true),
            Some(&Op::JumpIfNonZero { x, to: t }) => (x, t as usize, false),
            _ => {
                self.b.ins().jump(direct, &[]);
                return;
            }
        };
        // Only ahead: a block already translated is sealed, and takes no
        // new way in.
        let (Some(&yes), Some(&no)) = (blocks.get(&taken), blocks.get(&(to + 1))) else {
            self.b.ins().jump(direct, &[]);
            return;
        };
        // Both ways: the way on past the test lies behind a jump back to a
        // loop's test of a plain register (`while more { ... }`).
        if taken <= here || to < here {
            self.b.ins().jump(direct, &[]);
            return;
        }
        let v = self.get(x);
        let (if_nonzero, if_zero) = if on_zero { (no, yes) } else { (yes, no) };
        match self.known(v) {
            Some(0) => self.b.ins().jump(if_zero, &[]),
            Some(_) => self.b.ins().jump(if_nonzero, &[]),
            None => self.b.ins().brif(v, if_nonzero, &[], if_zero, &[]),
        };
    }

    /// Jumps to `to` where `cond` holds, else goes on.
    fn branch(&mut self, cond: Value, to: Block) {
        self.unless(cond, to);
    }

    /// Writes the registers back to the frame, for a caller that reads them.
    fn write_back(&mut self) {
        if let (true, Some(frame)) = (self.keep, self.frame) {
            for i in 0..self.regs.len() {
                let v = self.b.use_var(self.regs[i]);
                self.b.ins().store(FLAGS, v, frame, (i * 8) as i32);
            }
        }
    }

    /// A move's arguments: registers `0..n`, the rest 0.
    fn arg_values(&mut self, n: usize) -> [Value; MAX_MOVE_ARGS] {
        std::array::from_fn(|i| {
            if i < n && i < self.regs.len() {
                self.b.use_var(self.regs[i])
            } else {
                self.iconst(0)
            }
        })
    }

    /// Gives a move to the host: written into the caller's buffer while it
    /// has room, else through the `emit` callback, which may say to stop.
    fn emit(&mut self, kind: u16, args: [Value; MAX_MOVE_ARGS]) {
        let (fast, slow, done) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        let len = self.b.ins().load(I64, FLAGS, self.ctx, Ctx::OUT_LEN);
        let cap = self.b.ins().load(I64, FLAGS, self.ctx, Ctx::OUT_CAP);
        let room = self.icmp(IntCC::UnsignedLessThan, len, cap);
        self.b.ins().brif(room, fast, &[], slow, &[]);

        self.b.switch_to_block(fast);
        let base = self.b.ins().load(I64, FLAGS, self.ctx, Ctx::OUT);
        let off = self.imul_imm(len, MOVE_SIZE);
        let at = self.iadd(base, off);
        let k = self.b.ins().iconst(I16, i64::from(kind));
        self.b.ins().store(FLAGS, k, at, MOVE_KIND);
        for (i, &v) in args.iter().enumerate() {
            self.b.ins().store(FLAGS, v, at, MOVE_ARGS + (i * 8) as i32);
        }
        let more = self.iadd_imm(len, 1);
        self.b.ins().store(FLAGS, more, self.ctx, Ctx::OUT_LEN);
        self.b.ins().jump(done, &[]);

        self.b.switch_to_block(slow);
        for (i, &v) in args.iter().enumerate() {
            self.b.ins().stack_store(v, self.args, (i * 8) as i32);
        }
        let p = self.b.ins().stack_addr(I64, self.args, 0);
        // Not `FIXED`: hoisted out of a loop, it would hold a register through it.
        let f = self.b.ins().load(I64, FLAGS, self.ctx, Ctx::EMIT);
        let k = self.iconst(i64::from(kind));
        let call = self.b.ins().call_indirect(self.helper, f, &[self.ctx, k, p]);
        let stop = self.b.inst_results(call)[0];
        self.b.ins().brif(stop, self.stopped, &[], done, &[]);

        self.b.switch_to_block(done);
    }

    /// `EmitRange`'s moves at once, where the caller's buffer has room for
    /// them all and their count stays within `MAX_ARG_CHOICES`: a store per
    /// field and no check per move (`hi - lo` is below `MAX_RANGE_SPAN`,
    /// checked before). Otherwise goes to `one_by_one`, the loop that
    /// counts and emits each move (and fails, or stops, where the VM does).
    /// The choice counter `c` is left at `c0` plus the count; `exit` follows.
    fn emit_all(
        &mut self,
        kind: u16,
        mut args: [Value; MAX_MOVE_ARGS],
        last: usize,
        (lo, hi): (Value, Value),
        (c, c0): (Variable, Value),
        (one_by_one, exit): (Block, Block),
    ) {
        let d = self.isub(hi, lo);
        let count = self.iadd_imm(d, 1);
        let len = self.b.ins().load(I64, FLAGS, self.ctx, Ctx::OUT_LEN);
        let cap = self.b.ins().load(I64, FLAGS, self.ctx, Ctx::OUT_CAP);
        // The buffer's length never passes its capacity.
        let room = self.b.ins().isub(cap, len);
        let fits = self.icmp(IntCC::UnsignedGreaterThanOrEqual, room, count);
        let c_end = self.iadd(c0, count);
        let within = self.icmp_imm(IntCC::SignedLessThanOrEqual, c_end, MAX_ARG_CHOICES);
        let go = self.and_c(fits, within);
        let (start, body, done) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        self.b.ins().brif(go, start, &[], one_by_one, &[]);

        self.b.switch_to_block(start);
        let base = self.b.ins().load(I64, FLAGS, self.ctx, Ctx::OUT);
        let off = self.imul_imm(len, MOVE_SIZE);
        let at0 = self.iadd(base, off);
        let (at, v) = (self.b.declare_var(I64), self.b.declare_var(I64));
        self.b.def_var(at, at0);
        self.b.def_var(v, lo);
        self.b.ins().jump(body, &[]);

        self.b.switch_to_block(body);
        let p = self.b.use_var(at);
        let x = self.b.use_var(v);
        args[last] = x;
        let k = self.b.ins().iconst(I16, i64::from(kind));
        self.b.ins().store(FLAGS, k, p, MOVE_KIND);
        for (i, &a) in args.iter().enumerate() {
            self.b.ins().store(FLAGS, a, p, MOVE_ARGS + (i * 8) as i32);
        }
        let p1 = self.b.ins().iadd_imm(p, MOVE_SIZE);
        self.b.def_var(at, p1);
        let x1 = self.b.ins().iadd_imm(x, 1);
        self.b.def_var(v, x1);
        let end = self.b.ins().icmp(IntCC::Equal, x, hi);
        self.b.ins().brif(end, done, &[], body, &[]);

        self.b.switch_to_block(done);
        let more = self.b.ins().iadd(len, count);
        self.b.ins().store(FLAGS, more, self.ctx, Ctx::OUT_LEN);
        self.b.def_var(c, c_end);
        self.b.ins().jump(exit, &[]);
    }

    /// Translates the instruction at `ip`; false when it ends its block.
    fn op(&mut self, ip: usize, blocks: &HashMap<usize, Block>) -> bool {
        self.ip = ip;
        let op = self.code.ops[ip];
        if !native(&op) {
            return self.slow_op(ip, op, blocks);
        }
        match op {
            Op::Const { dst, value } => {
                let v = self.iconst(value);
                self.set(dst, v);
            }
            Op::Copy { dst, src } => {
                let v = self.get(src);
                self.set(dst, v);
            }
            Op::LoadCell { dst, cell } => {
                let v = self.load_at(cell);
                self.set(dst, v);
            }
            Op::Load { dst, addr } => {
                let a = self.get(addr);
                let v = self.load(a);
                self.set(dst, v);
            }
            Op::Neg { dst, src } => {
                let x = self.get(src);
                let min = self.icmp_imm(IntCC::Equal, x, i64::MIN);
                self.fail_if(min);
                let s = self.bounds_of(x).neg().unwrap_or(Bounds::ANY);
                let v = self.b.ins().ineg(x);
                let v = self.noted(v, s);
                self.set(dst, v);
            }
            Op::Not { dst, src } => {
                let x = self.get(src);
                let c = self.icmp_imm(IntCC::Equal, x, 0);
                let v = self.bool64(c);
                self.set(dst, v);
            }
            Op::Arith { op, dst, a, b } => {
                let (x, y) = (self.get(a), self.get(b));
                let v = self.arith(op, x, y);
                self.set(dst, v);
            }
            Op::ArithI { op, dst, a, imm } => {
                let x = self.get(a);
                let y = self.iconst(i64::from(imm));
                let v = self.arith(op, x, y);
                self.set(dst, v);
            }
            Op::Cmp { op, dst, a, b } => {
                let (x, y) = (self.get(a), self.get(b));
                let c = self.cmp(op, x, y);
                let v = self.bool64(c);
                self.set(dst, v);
            }
            Op::CmpI { op, dst, a, imm } => {
                let x = self.get(a);
                let c = self.cmp_imm(op, x, imm);
                let v = self.bool64(c);
                self.set(dst, v);
            }
            Op::Pick { op, dst, a, b } => {
                let (x, y) = (self.get(a), self.get(b));
                let (sx, sy) = (self.bounds_of(x), self.bounds_of(y));
                let c = self.cmp(op, x, y);
                let v = self.select(c, x, y);
                // Only a new value: where the comparison is known, `v` is
                // `x` or `y`, whose bounds elsewhere are their own.
                let v = match self.known(c) {
                    Some(_) => v,
                    None => {
                        let s = self.bounds_of(v).meet(sx.pick(op, sy));
                        self.noted(v, s)
                    }
                };
                self.set(dst, v);
            }
            Op::CellCmpI { op, dst, cell, imm } => {
                let x = self.load_at(cell);
                let c = self.cmp_imm(op, x, imm);
                let v = self.bool64(c);
                self.set(dst, v);
            }
            Op::Jump { to } => {
                self.goto(blocks, to as usize, ip);
                return false;
            }
            Op::JumpIfZero { x, to } => {
                let t = self.jump_to(blocks, to);
                let v = self.get(x);
                let c = self.icmp_imm(IntCC::Equal, v, 0);
                self.branch(c, t);
            }
            Op::JumpIfNonZero { x, to } => {
                let t = self.jump_to(blocks, to);
                let v = self.get(x);
                let c = self.icmp_imm(IntCC::NotEqual, v, 0);
                self.branch(c, t);
            }
            Op::JumpUnless { op, a, b, to } => {
                let t = self.jump_to(blocks, to);
                let (x, y) = (self.get(a), self.get(b));
                let c = self.icmp(cc(op).complement(), x, y);
                self.branch(c, t);
                self.refine_cmp(cc(op), x, y);
            }
            Op::JumpUnlessI { op, a, imm, to } => {
                let t = self.jump_to(blocks, to);
                let x = self.get(a);
                let c = self.icmp_imm(cc(op).complement(), x, i64::from(imm));
                self.branch(c, t);
                let s = given(cc(op), self.bounds_of(x), Bounds::exact(i64::from(imm)));
                self.refine(x, s);
            }
            Op::JumpUnlessCellI { op, cell, imm, to } => {
                let t = self.jump_to(blocks, to);
                let x = self.load_at(cell);
                let c = self.icmp_imm(cc(op).complement(), x, i64::from(imm));
                self.branch(c, t);
            }
            Op::JumpUnlessRemI { op, a, m, imm, to } => {
                let t = self.jump_to(blocks, to);
                let x = self.get(a);
                let r = self.rem_pos(x, m);
                let c = self.icmp_imm(cc(op).complement(), r, i64::from(imm));
                self.branch(c, t);
            }
            Op::JumpUnlessCellRemI { op, cell, m, imm, to } => {
                let t = self.jump_to(blocks, to);
                let x = self.load_at(cell);
                let r = self.rem_pos(x, m);
                let c = self.icmp_imm(cc(op).complement(), r, i64::from(imm));
                self.branch(c, t);
            }
            Op::Ret { src } => {
                let v = self.get(src);
                if let Some((after, result)) = self.ret_to {
                    self.b.def_var(result, v);
                    self.b.ins().jump(after, &[]);
                    return false;
                }
                self.write_back();
                self.leave(v, true);
                return false;
            }
            Op::Halt => {
                if let Some((after, result)) = self.ret_to {
                    let z = self.iconst(0);
                    self.b.def_var(result, z);
                    self.b.ins().jump(after, &[]);
                    return false;
                }
                self.write_back();
                let z = self.iconst(0);
                self.leave(z, true);
                return false;
            }
            Op::ElemAddr { dst, list, index, size } => {
                let l = self.get(list);
                let len = self.load(l);
                let i = self.get(index);
                let v = self.element(l, len, i, size);
                self.set(dst, v);
            }
            Op::ElemAddrS { dst, list, index, size } => {
                let l = self.iconst(i64::from(list));
                let len = self.load(l);
                let i = self.get(index);
                let v = self.element(l, len, i, size);
                self.set(dst, v);
            }
            Op::LoadElemS { dst, list, index, add } => {
                let o = self.static_element(list, index, add);
                let v = self.load(o);
                self.set(dst, v);
            }
            Op::StoreElemS {
                op,
                list,
                index,
                add,
                src,
            } => {
                let o = self.static_element(list, index, add);
                let s = self.get(src);
                let v = match op {
                    None => s,
                    Some(op) => {
                        let old = self.load(o);
                        self.arith(op, old, s)
                    }
                };
                self.store(o, v);
            }
            Op::StoreElemSI {
                op,
                list,
                index,
                add,
                imm,
            } => {
                let o = self.static_element(list, index, add);
                let old = self.load(o);
                let y = self.iconst(i64::from(imm));
                let v = self.arith(op, old, y);
                self.store(o, v);
            }
            Op::StoreCell { cell, src } => {
                let v = self.get(src);
                self.store_at(cell, v);
            }
            Op::Store { addr, src } => {
                let (a, v) = (self.get(addr), self.get(src));
                self.store(a, v);
            }
            Op::StoreArithCell { op, cell, src } => {
                let i = self.iconst(i64::from(cell));
                let old = self.load(i);
                let s = self.get(src);
                let v = self.arith(op, old, s);
                self.store(i, v);
            }
            Op::StoreArith { op, addr, src } => {
                let i = self.get(addr);
                let old = self.load(i);
                let s = self.get(src);
                let v = self.arith(op, old, s);
                self.store(i, v);
            }
            Op::IndexIn { dst, addr, x } => {
                let a = self.get(addr);
                let len = self.load(a);
                let x = self.get(x);
                let nonneg = self.icmp_imm(IntCC::SignedGreaterThanOrEqual, x, 0);
                let below = self.icmp(IntCC::SignedLessThan, x, len);
                let c = self.and_c(nonneg, below);
                let v = self.bool64(c);
                self.set(dst, v);
            }
            Op::SetHas { dst, addr, x, set } => {
                let lo = self.code.sets[set as usize].lo;
                let x = self.get(x);
                let bit = self.iadd_imm(x, lo.wrapping_neg());
                let v = self.bit_of(addr, bit);
                self.set(dst, v);
            }
            Op::SetHasI { dst, addr, bit } => {
                let bit = self.iconst(i64::from(bit));
                let v = self.bit_of(addr, bit);
                self.set(dst, v);
            }
            Op::SetAdd { addr, x, set } | Op::SetRemove { addr, x, set } => {
                let r = self.code.sets[set as usize];
                let x = self.get(x);
                let below = self.icmp_imm(IntCC::SignedLessThan, x, r.lo);
                let above = self.icmp_imm(IntCC::SignedGreaterThan, x, r.hi);
                let out = self.or_c(below, above);
                self.fail_if(out);
                let bit = self.iadd_imm(x, r.lo.wrapping_neg());
                let a = self.get(addr);
                let word = self.b.ins().ushr_imm(bit, 6);
                let o = self.iadd(a, word);
                let sh = self.b.ins().band_imm(bit, 63);
                let one = self.iconst(1);
                let mask = self.b.ins().ishl(one, sh);
                let w = self.load(o);
                let v = if matches!(op, Op::SetAdd { .. }) {
                    self.b.ins().bor(w, mask)
                } else {
                    let keep = self.b.ins().bnot(mask);
                    self.b.ins().band(w, keep)
                };
                self.store(o, v);
            }
            Op::Push { addr, x, cap } => {
                let o = self.get(addr);
                let v = self.get(x);
                let len = self.load(o);
                self.check_below(len, i64::from(cap));
                let base = self.iadd_imm(o, 1);
                let at = self.iadd(base, len);
                self.store(at, v);
                let n = self.iadd_imm(len, 1);
                self.store(o, n);
            }
            Op::RangeInit { var, hi, spend, to } => {
                let t = self.jump_to(blocks, to);
                let (lo, h) = (self.get(var), self.get(hi));
                self.check_range(lo, h);
                let empty = self.icmp(IntCC::SignedGreaterThan, lo, h);
                if spend {
                    // Short enough: `h - lo + 1` does not overflow where `lo <= h`.
                    let d = self.isub(h, lo);
                    let n = self.iadd_imm(d, 1);
                    let zero = self.iconst(0);
                    let n = self.select(empty, zero, n);
                    self.spend(n);
                }
                self.branch(empty, t);
                let (sl, sh) = (self.bounds_of(lo), self.bounds_of(h));
                let s = Bounds {
                    lo: sl.lo,
                    hi: sl.hi.max(sh.hi),
                };
                if s != Bounds::ANY
                    && let Some(next) = stepped_loop(&self.code.ops, self.fn_start, self.fn_end, ip)
                {
                    self.loops.push((self.regs[var as usize], s, ip + 1..=next));
                }
            }
            Op::RangeNext { var, hi, to } => {
                let t = self.jump_to(blocks, to);
                let (v, h) = (self.get(var), self.get(hi));
                let more = self.icmp(IntCC::SignedLessThan, v, h);
                match self.known(more) {
                    Some(k) => {
                        if k != 0 {
                            let next = self.iadd_imm(v, 1);
                            self.set(var, next);
                        }
                        self.branch(more, t);
                    }
                    // The next number only on the way back to the loop's
                    // start: out of the loop `var` stays `hi`, with no
                    // select between the two.
                    None => {
                        let (back, out) = (self.b.create_block(), self.b.create_block());
                        self.b.ins().brif(more, back, &[], out, &[]);
                        for blk in [back, out] {
                            self.b.seal_block(blk);
                        }
                        self.b.switch_to_block(back);
                        let next = self.iadd_imm(v, 1);
                        self.set(var, next);
                        self.b.ins().jump(t, &[]);
                        self.b.switch_to_block(out);
                        self.set(var, v);
                    }
                }
            }
            Op::CountNext { var, idx, limit, to } => {
                let t = self.jump_to(blocks, to);
                let (i, l) = (self.get(idx), self.get(limit));
                let done = self.icmp(IntCC::SignedGreaterThanOrEqual, i, l);
                self.branch(done, t);
                self.set(var, i);
                let n = self.iadd_imm(i, 1);
                self.set(idx, n);
            }
            Op::ListNext { var, idx, addr, to } => {
                let t = self.jump_to(blocks, to);
                self.next_element(var, idx, addr, t, false);
            }
            Op::SumAdd { acc, x } => {
                let (a, x) = (self.get(acc), self.get(x));
                let v = self.checked_add(a, x);
                self.set(acc, v);
            }
            Op::CountAdd { acc, x } => {
                let (a, x) = (self.get(acc), self.get(x));
                let c = self.icmp_imm(IntCC::NotEqual, x, 0);
                let c = self.bool64(c);
                let v = self.iadd(a, c);
                self.set(acc, v);
            }
            Op::PickAcc { op, acc, found, x } => {
                let (a, f, x) = (self.get(acc), self.get(found), self.get(x));
                let none = self.icmp_imm(IntCC::Equal, f, 0);
                let better = self.cmp(op, x, a);
                let take = self.or_c(none, better);
                let v = self.select(take, x, a);
                self.set(acc, v);
                let one = self.iconst(1);
                self.set(found, one);
            }
            Op::NeedFound { found, .. } => {
                let f = self.get(found);
                let none = self.icmp_imm(IntCC::Equal, f, 0);
                self.fail_if(none);
            }
            Op::Call { dst, func, args, n } => {
                let f = self.code.fns[func as usize];
                let d = self.b.use_var(self.depth);
                // Known to pass where the depth checked on entry covers it.
                self.check_below(d, MAX_CALL_DEPTH as i64);
                let d1 = self.iadd_imm(d, 1);
                if self.can_inline(f) {
                    self.spend_unchecked();
                    let vals: Vec<Value> = (0..n).map(|k| self.get(args + k)).collect();
                    self.b.def_var(self.depth, d1);
                    let v = self.inline_call(f, &vals);
                    self.b.def_var(self.depth, d);
                    self.set(dst, v);
                    return true;
                }
                let one = self.iconst(1);
                self.spend(one);
                let (callee, direct) = self.refs[&f.start];
                let v = if direct == Some(n) {
                    if !self.calls.contains(&f.start) {
                        self.calls.push(f.start);
                    }
                    let s = self.b.use_var(self.steps);
                    let mut vals = vec![self.ctx, d1, s];
                    for k in 0..n {
                        vals.push(self.get(args + k));
                    }
                    let call = self.b.ins().call(callee, &vals);
                    let (v, s) = (self.b.inst_results(call)[0], self.b.inst_results(call)[1]);
                    let failed = self.b.ins().load(I64, FLAGS, self.ctx, Ctx::FAIL);
                    self.unless(failed, self.failed);
                    self.b.def_var(self.steps, s);
                    v
                } else {
                    let words = f.frame.max(n as usize);
                    for k in 0..words {
                        let v = if k < n as usize {
                            self.get(args + k as u16)
                        } else {
                            self.iconst(0)
                        };
                        self.b.ins().stack_store(v, self.callee, (k * 8) as i32);
                    }
                    let fp = self.b.ins().stack_addr(I64, self.callee, 0);
                    // The callee reads the budget from memory.
                    let before = self.sync_budget(Some(d1));
                    let call = self.b.ins().call(callee, &[self.ctx, fp]);
                    let v = self.b.inst_results(call)[0];
                    let failed = self.b.ins().load(I64, FLAGS, self.ctx, Ctx::FAIL);
                    self.unless(failed, self.failed);
                    self.reload_steps(before);
                    v
                };
                self.set(dst, v);
            }
            Op::Choice { counter, .. } => {
                let c = self.get(counter);
                let c1 = self.count_choice(c);
                self.set(counter, c1);
            }
            Op::Emit { kind, n } => {
                let args = self.arg_values(n as usize);
                self.emit(kind, args);
            }
            Op::EmitRange {
                kind,
                n,
                var,
                hi,
                counter,
            } => {
                let (lo, h) = (self.get(var), self.get(hi));
                self.check_range(lo, h);
                let mut args = self.arg_values(n as usize - 1);
                let v = self.b.declare_var(I64);
                let c = self.b.declare_var(I64);
                self.b.def_var(v, lo);
                let c0 = self.get(counter);
                self.b.def_var(c, c0);
                let (head, exit) = (self.b.create_block(), self.b.create_block());
                let check = self.b.create_block();
                let empty = self.icmp(IntCC::SignedGreaterThan, lo, h);
                self.b.ins().brif(empty, exit, &[], check, &[]);
                self.b.switch_to_block(check);
                self.emit_all(kind, args, n as usize - 1, (lo, h), (c, c0), (head, exit));
                self.b.switch_to_block(head);
                let cv = self.b.use_var(c);
                let c1 = self.count_choice(cv);
                self.b.def_var(c, c1);
                args[n as usize - 1] = self.b.use_var(v);
                self.emit(kind, args);
                let x = self.b.use_var(v);
                let last = self.icmp(IntCC::Equal, x, h);
                let x1 = self.iadd_imm(x, 1);
                self.b.def_var(v, x1);
                self.b.ins().brif(last, exit, &[], head, &[]);
                self.b.switch_to_block(exit);
                let cv = self.b.use_var(c);
                self.set(counter, cv);
            }
            Op::Step => {
                let one = self.iconst(1);
                self.spend(one);
            }
            Op::LoadConst { dst, addr } => {
                let a = self.get(addr);
                let v = self.load_const(a);
                self.set(dst, v);
            }
            Op::ConstElemAddr { dst, list, index, size } => {
                let l = self.get(list);
                let len = self.load_const(l);
                let i = self.get(index);
                let v = self.element(l, len, i, size);
                self.set(dst, v);
            }
            Op::ConstListNext { var, idx, addr, to } => {
                let t = self.jump_to(blocks, to);
                self.next_element(var, idx, addr, t, true);
            }
            Op::SetCount { dst, addr, set } => {
                let words = self.code.sets[set as usize].words;
                let o = self.get(addr);
                let mut total = self.iconst(0);
                for w in 0..words {
                    let i = self.iadd_imm(o, i64::from(w));
                    let v = self.load(i);
                    let n = self.b.ins().popcnt(v);
                    total = self.iadd(total, n);
                }
                self.set(dst, total);
            }
            Op::SumList { dst, addr } => {
                let o = self.get(addr);
                let v = self.sum_list(o);
                self.set(dst, v);
            }
            Op::SumListS { dst, list } => {
                let o = self.iconst(i64::from(list));
                let v = self.sum_list(o);
                self.set(dst, v);
            }
            Op::ListHas { dst, addr, x } => {
                let o = self.get(addr);
                let x = self.get(x);
                let v = self.list_has(o, x);
                self.set(dst, v);
            }
            Op::Clear { addr, words } => {
                let o = self.get(addr);
                let zero = self.iconst(0);
                for w in 0..words {
                    let i = self.iadd_imm(o, i64::from(w));
                    self.store(i, zero);
                }
            }
            Op::SetNext {
                var,
                state,
                addr,
                set,
                to,
            } => {
                let t = self.jump_to(blocks, to);
                let r = self.code.sets[set as usize];
                let o = self.get(addr);
                let bits = self.b.declare_var(I64);
                let word = self.b.declare_var(I64);
                let b0 = self.get(state);
                let w0 = self.get(state + 1);
                self.b.def_var(bits, b0);
                self.b.def_var(word, w0);
                let (head, advance, load, empty, found) = (
                    self.b.create_block(),
                    self.b.create_block(),
                    self.b.create_block(),
                    self.b.create_block(),
                    self.b.create_block(),
                );
                self.b.ins().jump(head, &[]);
                self.b.switch_to_block(head);
                let bv = self.b.use_var(bits);
                self.b.ins().brif(bv, found, &[], advance, &[]);
                self.b.switch_to_block(advance);
                let wv = self.b.use_var(word);
                let w1 = self.iadd_imm(wv, 1);
                self.b.def_var(word, w1);
                let past = self
                    .b
                    .ins()
                    .icmp_imm(IntCC::SignedGreaterThanOrEqual, w1, i64::from(r.words));
                self.b.ins().brif(past, empty, &[], load, &[]);
                self.b.switch_to_block(load);
                let wv = self.b.use_var(word);
                let i = self.iadd(o, wv);
                let v = self.load(i);
                self.b.def_var(bits, v);
                self.b.ins().jump(head, &[]);
                self.b.switch_to_block(empty);
                let wv = self.b.use_var(word);
                self.set(state + 1, wv);
                self.b.ins().jump(t, &[]);
                self.b.switch_to_block(found);
                let (bv, wv) = (self.b.use_var(bits), self.b.use_var(word));
                let tz = self.b.ins().ctz(bv);
                let base = self.imul_imm(wv, 64);
                let base = self.iadd_imm(base, r.lo);
                let v = self.iadd(base, tz);
                self.set(var, v);
                let less = self.iadd_imm(bv, -1);
                let rest = self.b.ins().band(bv, less);
                self.set(state, rest);
                self.set(state + 1, wv);
            }
            Op::ItemsMark { dst } => {
                let v = self.items_call(super::call::items_len as *const () as usize, None);
                self.set(dst, v);
            }
            Op::ItemsPush { x } => {
                let x = self.get(x);
                self.items_call(super::call::items_push as *const () as usize, Some(x));
            }
            Op::ItemsDrop { mark } => {
                let m = self.get(mark);
                self.items_call(super::call::items_truncate as *const () as usize, Some(m));
            }
            Op::ItemsNext { var, idx, to } => {
                let t = self.jump_to(blocks, to);
                let i = self.get(idx);
                let len = self.items_call(super::call::items_len as *const () as usize, None);
                // As the VM's `as usize`: a negative index is past the end.
                let done = self.icmp(IntCC::UnsignedGreaterThanOrEqual, i, len);
                self.branch(done, t);
                let v = self.items_call(super::call::item as *const () as usize, Some(i));
                self.set(var, v);
                let n = self.iadd_imm(i, 1);
                self.set(idx, n);
            }
            _ => unreachable!("every other instruction runs in the VM (`native`)"),
        }
        true
    }

    /// The length of the list whose length cell is `o`; a negative one fails.
    fn list_len(&mut self, o: Value) -> Value {
        let len = self.load(o);
        let neg = self.icmp_imm(IntCC::SignedLessThan, len, 0);
        self.fail_if(neg);
        len
    }

    /// The sum of the list of scalars whose length cell is `o`, checked.
    /// Its cells are checked once, before the loop: the last one, `o +
    /// len`, is a cell (an op that reads and writes nothing else fails the
    /// same wherever it fails, and the VM then says where). Cells of at
    /// most four bytes cannot overflow an `i64` however many a state holds,
    /// so only eight-byte cells are added with a check (Nim's end test
    /// added 6 instructions a pile).
    fn sum_list(&mut self, o: Value) -> Value {
        let len = self.list_len(o);
        // `o` is a cell (read above) and `len >= 0`: `len < cells - o`
        // cannot overflow, and puts every element `o + 1 + i`, `i < len`,
        // among the cells.
        let room = self.b.ins().irsub_imm(o, self.len);
        let past = self.icmp(IntCC::SignedGreaterThanOrEqual, len, room);
        self.fail_if(past);
        let (i, total) = (self.b.declare_var(I64), self.b.declare_var(I64));
        let zero = self.iconst(0);
        self.b.def_var(i, zero);
        self.b.def_var(total, zero);
        let (head, body, done) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        let iv = self.b.use_var(i);
        let more = self.icmp(IntCC::SignedLessThan, iv, len);
        self.b.ins().brif(more, body, &[], done, &[]);
        self.b.switch_to_block(body);
        let iv = self.b.use_var(i);
        let at = self.iadd(o, iv);
        let at = self.iadd_imm(at, 1);
        // Among the cells, by the check before the loop.
        let at = self.noted(
            at,
            Bounds {
                lo: 0,
                hi: self.len - 1,
            },
        );
        let x = self.load(at);
        let t = self.b.use_var(total);
        let t = match self.width {
            8 => self.checked_add(t, x),
            _ => self.b.ins().iadd(t, x),
        };
        self.b.def_var(total, t);
        let i1 = self.iadd_imm(iv, 1);
        self.b.def_var(i, i1);
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(done);
        self.b.use_var(total)
    }

    /// Whether the list of scalars whose length cell is `o` holds `x` (1 or 0).
    fn list_has(&mut self, o: Value, x: Value) -> Value {
        let len = self.list_len(o);
        let i = self.b.declare_var(I64);
        let zero = self.iconst(0);
        self.b.def_var(i, zero);
        let res = self.b.declare_var(I64);
        self.b.def_var(res, zero);
        let (head, body, hit, done) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        let iv = self.b.use_var(i);
        let more = self.icmp(IntCC::SignedLessThan, iv, len);
        self.b.ins().brif(more, body, &[], done, &[]);
        self.b.switch_to_block(body);
        let iv = self.b.use_var(i);
        let at = self.iadd(o, iv);
        let at = self.iadd_imm(at, 1);
        let v = self.load(at);
        let i1 = self.iadd_imm(iv, 1);
        self.b.def_var(i, i1);
        let eq = self.icmp(IntCC::Equal, v, x);
        self.b.ins().brif(eq, hit, &[], head, &[]);
        self.b.switch_to_block(hit);
        let one = self.iconst(1);
        self.b.def_var(res, one);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
        self.b.use_var(res)
    }

    /// Calls an item-stack helper of `call` at address `f`: `(budget) -> i64`
    /// or `(budget, x) -> i64`.
    fn items_call(&mut self, f: usize, x: Option<Value>) -> Value {
        let sig = match x {
            None => self.items_sig.0,
            Some(_) => self.items_sig.1,
        };
        let f = self.iconst(f as i64);
        let budget = self.budget_ptr();
        let mut args = vec![budget];
        args.extend(x);
        let call = self.b.ins().call_indirect(sig, f, &args);
        self.b.inst_results(call)[0]
    }

    /// Bit `bit` of the set whose first word is the cell in register `addr`.
    fn bit_of(&mut self, addr: u16, bit: Value) -> Value {
        let a = self.get(addr);
        let word = self.b.ins().ushr_imm(bit, 6);
        let o = self.iadd(a, word);
        let w = self.load(o);
        let sh = self.b.ins().band_imm(bit, 63);
        let v = self.b.ins().sshr(w, sh);
        self.b.ins().band_imm(v, 1)
    }

    /// An instruction the VM runs: the registers go to a frame in memory,
    /// the VM runs the instruction's stub, and they come back.
    fn slow_op(&mut self, ip: usize, op: Op, blocks: &HashMap<usize, Block>) -> bool {
        // The VM spends from the budget in memory.
        self.sync_budget(None);
        for i in 0..self.regs.len() {
            let v = self.b.use_var(self.regs[i]);
            self.b.ins().stack_store(v, self.spill, (i * 8) as i32);
        }
        let fp = self.b.ins().stack_addr(I64, self.spill, 0);
        let f = self.b.ins().load(I64, FLAGS, self.ctx, Ctx::SLOW);
        let stub = self.iconst(i64::from(self.slow.stub[ip]));
        let n = self.iconst(self.spill_len as i64);
        let call = self.b.ins().call_indirect(self.slow_sig, f, &[self.ctx, stub, fp, n]);
        let flow = self.b.inst_results(call)[0];
        let failed = self.icmp_imm(IntCC::UnsignedGreaterThan, flow, 1);
        self.unless(failed, self.failed);
        self.reload_steps(None);
        for i in 0..self.regs.len() {
            let v = self.b.ins().stack_load(I64, self.spill, (i * 8) as i32);
            self.b.def_var(self.regs[i], v);
        }
        if let Some(to) = op.target() {
            let t = self.jump_to(blocks, to);
            self.branch(flow, t);
        }
        true
    }
}
