//! The rules as flat code: one array of instructions for the whole program,
//! each with the span a run-time error of it points at, run by the executor in
//! `runtime::vm` with an instruction pointer over a frame of `i64` registers.
//!
//! A frame holds the rule's locals first (move arguments, `let` names, loop
//! variables: the slots the tree IR numbered), then temporaries. Each rule is
//! an [`Entry`]: where its code starts and how many registers its frame needs.
//! `lower_code` makes this from the tree IR; [`Code::listing`] prints it.

use std::fmt::{self, Write as _};

use super::{ArithOp, CmpOp, Span};

/// A register: an index into the frame.
pub type Reg = u16;

/// An instruction's index in [`Code::ops`].
pub type Label = u32;

/// One instruction. Registers are named `dst` (written), `a`, `b`, `src`, `x`
/// (read); `addr` holds a cell index; `to` is a jump target. Instructions that
/// can fail report the span recorded for them in [`Code::spans`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Op {
    /// `dst = value`
    Const {
        dst: Reg,
        value: i64,
    },
    /// `dst = src`
    Copy {
        dst: Reg,
        src: Reg,
    },
    /// `dst = cells[cell]`
    LoadCell {
        dst: Reg,
        cell: u32,
    },
    /// `dst = cells[addr]`
    Load {
        dst: Reg,
        addr: Reg,
    },
    /// `dst = -src`, checked (an overflow has no span of its own).
    Neg {
        dst: Reg,
        src: Reg,
    },
    /// `dst = (src == 0)`
    Not {
        dst: Reg,
        src: Reg,
    },
    /// `dst = a op b`, checked.
    Arith {
        op: ArithOp,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    /// `dst = a op imm`, checked.
    ArithI {
        op: ArithOp,
        dst: Reg,
        a: Reg,
        imm: i32,
    },
    /// `dst = (a op b)`
    Cmp {
        op: CmpOp,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    /// `dst = (a op imm)`
    CmpI {
        op: CmpOp,
        dst: Reg,
        a: Reg,
        imm: i32,
    },
    /// `dst = if a op b { a } else { b }`: `min` and `max`.
    Pick {
        op: CmpOp,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    /// `dst = cells[cell] op imm`: `last % 2`, `dealt < R`.
    CellCmpI {
        op: CmpOp,
        dst: Reg,
        cell: u32,
        imm: i32,
    },

    Jump {
        to: Label,
    },
    JumpIfZero {
        x: Reg,
        to: Label,
    },
    JumpIfNonZero {
        x: Reg,
        to: Label,
    },
    /// Jumps unless `a op b`.
    JumpUnless {
        op: CmpOp,
        a: Reg,
        b: Reg,
        to: Label,
    },
    /// Jumps unless `a op imm`.
    JumpUnlessI {
        op: CmpOp,
        a: Reg,
        imm: i32,
        to: Label,
    },
    /// Jumps unless `cells[cell] op imm`.
    JumpUnlessCellI {
        op: CmpOp,
        cell: u32,
        imm: i32,
        to: Label,
    },
    /// Jumps unless `(a % m) op imm` (`x % 2 == 0`), with `m > 0`.
    JumpUnlessRemI {
        op: CmpOp,
        a: Reg,
        m: i32,
        imm: i32,
        to: Label,
    },
    /// Jumps unless `(cells[cell] % m) op imm` (`last % 2 == 0`), with `m > 0`.
    JumpUnlessCellRemI {
        op: CmpOp,
        cell: u32,
        m: i32,
        imm: i32,
        to: Label,
    },
    /// Ends the rule with the value of `src`.
    Ret {
        src: Reg,
    },
    /// Ends the rule (statements, move generation).
    Halt,

    /// `dst` = the cell of element `index` of the list whose length cell is
    /// held in register `list`: `list + 1 + index * size`, after checking
    /// `0 <= index < cells[list]`.
    ElemAddr {
        dst: Reg,
        list: Reg,
        index: Reg,
        size: u32,
    },
    /// As `ElemAddr`, the list's length cell fixed.
    ElemAddrS {
        dst: Reg,
        list: u32,
        index: Reg,
        size: u32,
    },
    /// `dst = list[index + add]` of a list of scalars at a fixed cell; the
    /// index sum is checked (its span is the second span of the instruction).
    LoadElemS {
        dst: Reg,
        list: u32,
        index: Reg,
        add: i32,
    },
    /// `list[index + add] op= src` of a list of scalars at a fixed cell (the
    /// compound arithmetic's span is the third span of the instruction).
    StoreElemS {
        op: Option<ArithOp>,
        list: u32,
        index: Reg,
        add: i32,
        src: Reg,
    },
    /// `list[index + add] op= imm` of a list of scalars at a fixed cell.
    StoreElemSI {
        op: ArithOp,
        list: u32,
        index: Reg,
        add: i32,
        imm: i32,
    },

    /// `cells[cell] = src`
    StoreCell {
        cell: u32,
        src: Reg,
    },
    /// `cells[addr] = src`
    Store {
        addr: Reg,
        src: Reg,
    },
    /// `cells[cell] = cells[cell] op src`, checked.
    StoreArithCell {
        op: ArithOp,
        cell: u32,
        src: Reg,
    },
    /// `cells[addr] = cells[addr] op src`, checked.
    StoreArith {
        op: ArithOp,
        addr: Reg,
        src: Reg,
    },

    /// `dst` = how many numbers `lo..=hi` holds.
    RangeLen {
        dst: Reg,
        lo: Reg,
        hi: Reg,
    },
    /// `dst` = how many numbers the set at `addr` holds.
    SetCount {
        dst: Reg,
        addr: Reg,
        set: u32,
    },
    /// `dst` = the sum of the list of scalars whose length cell is `addr`.
    SumList {
        dst: Reg,
        addr: Reg,
    },
    /// `dst` = the sum of the list of scalars whose length cell is `list`.
    SumListS {
        dst: Reg,
        list: u32,
    },
    /// `dst` = whether the list at `addr` holds `x`.
    ListHas {
        dst: Reg,
        addr: Reg,
        x: Reg,
    },
    /// `dst = (0 <= x < cells[addr])`
    IndexIn {
        dst: Reg,
        addr: Reg,
        x: Reg,
    },
    /// `dst` = whether the set at `addr` holds `x` (already known to be in its range).
    SetHas {
        dst: Reg,
        addr: Reg,
        x: Reg,
        set: u32,
    },
    /// `dst` = bit `bit` of the set at `addr`: whether it holds a constant
    /// known to be in its range.
    SetHasI {
        dst: Reg,
        addr: Reg,
        bit: u32,
    },
    /// Adds `x` to the set at `addr`; an `x` outside its range fails.
    SetAdd {
        addr: Reg,
        x: Reg,
        set: u32,
    },
    /// Removes `x` from the set at `addr`; an `x` outside its range fails.
    SetRemove {
        addr: Reg,
        x: Reg,
        set: u32,
    },
    /// Appends `x` to the list at `addr`, which holds at most `cap`.
    Push {
        addr: Reg,
        x: Reg,
        cap: u32,
    },
    /// Zeroes `words` cells from `addr`.
    Clear {
        addr: Reg,
        words: u32,
    },

    /// Starts going through `var..=hi`: checks that the range is short enough
    /// (`spend`: and takes its length from the step budget); jumps to `to`
    /// when it is empty.
    RangeInit {
        var: Reg,
        hi: Reg,
        spend: bool,
        to: Label,
    },
    /// The next number: if `var < hi`, `var += 1` and jumps to `to`.
    RangeNext {
        var: Reg,
        hi: Reg,
        to: Label,
    },
    /// The next of `0..limit`: jumps to `to` when `idx >= limit`, else
    /// `var = idx; idx += 1`.
    CountNext {
        var: Reg,
        idx: Reg,
        limit: Reg,
        to: Label,
    },
    /// The next element of the list at `addr`: jumps to `to` past its
    /// end, else `var = element idx; idx += 1`.
    ListNext {
        var: Reg,
        idx: Reg,
        addr: Reg,
        to: Label,
    },
    /// The next element of the set at `addr`: `state` holds the bits of the
    /// current word not yet visited, `state + 1` the word's index (start
    /// both at 0 and -1); jumps to `to` past the last element.
    SetNext {
        var: Reg,
        state: Reg,
        addr: Reg,
        set: u32,
        to: Label,
    },

    /// `dst` = the top of the item stack (its length), before items are pushed.
    ItemsMark {
        dst: Reg,
    },
    /// Pushes every element of the list at `addr`.
    ItemsList {
        addr: Reg,
    },
    /// Pushes `0..cells[addr]`: the indexes of the list at `addr`.
    ItemsIndices {
        addr: Reg,
    },
    /// Pushes every element of the set at `addr`.
    ItemsSet {
        addr: Reg,
        set: u32,
    },
    /// Pushes `x`.
    ItemsPush {
        x: Reg,
    },
    /// The next item: jumps to `to` when `idx` reaches the top of the
    /// stack, else `var = items[idx]; idx += 1`.
    ItemsNext {
        var: Reg,
        idx: Reg,
        to: Label,
    },
    /// Drops the items from `mark` on.
    ItemsDrop {
        mark: Reg,
    },

    /// `acc += x` in a sum, checked.
    SumAdd {
        acc: Reg,
        x: Reg,
    },
    /// `acc += (x != 0)`
    CountAdd {
        acc: Reg,
        x: Reg,
    },
    /// `acc = x` if `found` is 0 or `x op acc`; then `found = 1`: min and max.
    PickAcc {
        op: CmpOp,
        acc: Reg,
        found: Reg,
        x: Reg,
    },
    /// Fails with ``min`/`max` of an empty collection` if `found` is 0.
    NeedFound {
        found: Reg,
        max: bool,
    },

    /// `dst` = function `func` of the `n` values in registers `args..args+n`.
    Call {
        dst: Reg,
        func: u16,
        args: Reg,
        n: u16,
    },

    /// One more choice of arguments for move `kind`; too many fail.
    Choice {
        counter: Reg,
        kind: u16,
    },
    /// Offers the move `kind` whose `n` arguments are in registers `0..n`.
    Emit {
        kind: u16,
        n: u16,
    },
    /// Offers the moves `kind` whose last argument `var` goes through
    /// `var..=hi` (checked to be short enough), the others in registers
    /// `0..n-1`: a choice each.
    EmitRange {
        kind: u16,
        n: u16,
        var: Reg,
        hi: Reg,
        counter: Reg,
    },

    /// Takes one step from the budget (a round of a `while` loop).
    Step,

    /// `dst = consts[addr]`: a cell of the constants ([`Code::consts`]).
    LoadConst {
        dst: Reg,
        addr: Reg,
    },
    /// As `ElemAddr`, in a list of the constants.
    ConstElemAddr {
        dst: Reg,
        list: Reg,
        index: Reg,
        size: u32,
    },
    /// As `ListNext`, through a list of the constants.
    ConstListNext {
        var: Reg,
        idx: Reg,
        addr: Reg,
        to: Label,
    },
    /// As `ListHas`, in a list of the constants.
    ConstListHas {
        dst: Reg,
        addr: Reg,
        x: Reg,
    },

    /// Moves the items from `mark` on into the list of scalars at `addr`,
    /// which holds at most `cap`.
    ListFromItems {
        addr: Reg,
        mark: Reg,
        cap: u32,
    },
    /// Makes the set at `addr` hold exactly the items from `mark` on.
    SetFromItems {
        addr: Reg,
        mark: Reg,
        set: u32,
    },
    /// `dst` = whether the items from `a` to `b` compare `op` to those from
    /// `b` on, element by element (`sets`: each sorted, without repeats,
    /// first); drops both.
    ItemsCmp {
        op: CmpOp,
        dst: Reg,
        a: Reg,
        b: Reg,
        sets: bool,
    },
    /// Copies `n` cells from `src` to `dst`.
    CopyCells {
        dst: Reg,
        src: Reg,
        n: u32,
    },
    /// Copies `n` cells of the constants from `src` to the cell `dst`.
    CopyConst {
        dst: Reg,
        src: Reg,
        n: u32,
    },
    /// Removes the last element (of `size` cells) of the list at `addr`.
    Pop {
        addr: Reg,
        size: u32,
    },
    /// Removes element `index` of the list at `addr`.
    RemoveAt {
        addr: Reg,
        index: Reg,
        size: u32,
    },
    /// Removes the first element equal to `x` from the list of scalars at `addr`.
    ListRemove {
        addr: Reg,
        x: Reg,
    },
    /// Puts `x` before element `index` of the list of scalars at `addr`.
    Insert {
        addr: Reg,
        index: Reg,
        x: Reg,
        cap: u32,
    },
    /// Sorts the list of scalars at `addr`, ascending.
    Sort {
        addr: Reg,
    },
    /// `dst` = the address of `size` zeroed cells of scratch, the call's
    /// own until it returns: where its local lists and sets live. Those
    /// addresses are [`SCRATCH_BASE`] and up, past any state's cells.
    ScratchEnter {
        dst: Reg,
        size: u32,
    },
}

/// The first address of the scratch cells of local lists and sets: far
/// past a state's cells (at most 2^16), so a cell index tells the two apart.
pub const SCRATCH_BASE: usize = 1 << 40;

/// Where a rule's code starts, and the registers its frame needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub start: Label,
    /// One past the rule's last instruction.
    pub end: Label,
    pub frame: usize,
}

/// Where an instruction's errors point (`Span::default()`: nowhere of its
/// own; the rule's span is used).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpSpans {
    /// The instruction's own failure: an index out of range, an overflow.
    pub at: Span,
    /// A fused element instruction's index arithmetic (`pit - 1`).
    pub index: Span,
    /// A fused compound store's arithmetic (`board[p - 1] += 1`).
    pub store: Span,
}

/// A set's range, for the instructions that go through or change one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetRange {
    pub lo: i64,
    pub hi: i64,
    pub words: u32,
}

/// One kind of move.
#[derive(Clone, Debug)]
pub struct MoveCode {
    /// Goes through the arguments' domains, tests `requires` and emits each legal move.
    pub generate: Entry,
    /// The move's body; its arguments in the first registers.
    pub body: Entry,
    /// A simultaneous move's `then` block.
    pub then: Option<Entry>,
    /// A chance move's weight, its arguments in the first registers.
    pub weight: Option<Entry>,
}

/// A value a rule computes: a constant or a cell is read without running code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Const(i64),
    Cell(u32),
    Code(Entry),
}

/// An end clause's condition ([`super::Cond`]) as flat code: each
/// expression term a rule of its own; `no moves` asks the moves' generators.
#[derive(Clone, Debug)]
pub enum CondCode {
    Entry(Entry),
    NoMoves,
    Not(Box<CondCode>),
    And(Box<CondCode>, Box<CondCode>),
    Or(Box<CondCode>, Box<CondCode>),
}

impl CondCode {
    /// The rules of its expression terms, in order.
    pub fn entries(&self, out: &mut Vec<Entry>) {
        match self {
            CondCode::Entry(e) => out.push(*e),
            CondCode::NoMoves => {}
            CondCode::Not(a) => a.entries(out),
            CondCode::And(a, b) | CondCode::Or(a, b) => {
                a.entries(out);
                b.entries(out);
            }
        }
    }

    /// Whether `no moves` is one of its terms.
    pub fn asks_for_moves(&self) -> bool {
        match self {
            CondCode::Entry(_) => false,
            CondCode::NoMoves => true,
            CondCode::Not(a) => a.asks_for_moves(),
            CondCode::And(a, b) | CondCode::Or(a, b) => a.asks_for_moves() || b.asks_for_moves(),
        }
    }
}

/// One `end when` clause.
#[derive(Clone, Debug)]
pub struct EndCode {
    pub cond: CondCode,
    /// The winner's or loser's player, and the payoff.
    pub player: Option<Value>,
    pub payoff: Option<Value>,
    /// The cell where the score list starts (`lowest collected wins`).
    pub scores: Option<Entry>,
}

/// A program's rules as flat code.
#[derive(Clone, Debug, Default)]
pub struct Code {
    pub ops: Vec<Op>,
    /// Where each instruction's errors point, by index.
    pub spans: Vec<OpSpans>,
    pub sets: Vec<SetRange>,
    pub moves: Vec<MoveCode>,
    pub ends: Vec<EndCode>,
    pub fns: Vec<Entry>,
    /// A heading per rule, at the instruction the rule starts with.
    pub headers: Vec<(Label, String)>,
    /// The names of the moves and functions, for the listing.
    pub move_names: Vec<String>,
    pub fn_names: Vec<String>,
    /// The cells of the `const` lists, which the `Const...` instructions read.
    pub consts: Vec<i64>,
    /// Whether some rule has local lists or sets (`ScratchEnter`): the
    /// executor then gives its rules a scratch area.
    pub scratch: bool,
}

impl Code {
    /// The numbered listing, one rule after another: a heading, then
    /// `0000  op  operands  ; source`, the source being the text the
    /// instruction's error would point at, or its line and column.
    pub fn listing(&self, source: &str) -> String {
        let mut out = String::new();
        let mut headers = self.headers.iter().peekable();
        let mut heading = |out: &mut String, upto: usize| {
            while let Some((at, name)) = headers.peek() {
                if *at as usize > upto {
                    break;
                }
                if !out.is_empty() {
                    out.push('\n');
                }
                let _ = writeln!(out, "{name}");
                headers.next();
            }
        };
        for (i, op) in self.ops.iter().enumerate() {
            heading(&mut out, i);
            let text = self.show(op);
            let spans = self.spans[i];
            let span = [spans.at, spans.store, spans.index]
                .into_iter()
                .find(|s| *s != Span::default())
                .unwrap_or_default();
            if span == Span::default() {
                let _ = writeln!(out, "{i:04}  {text}");
            } else {
                let _ = writeln!(out, "{i:04}  {text:<44}; {}", snippet(source, span));
            }
        }
        heading(&mut out, usize::MAX);
        out
    }
}

impl Op {
    /// The registers the instruction reads or writes, the implied ones included.
    pub fn registers(&self) -> Vec<usize> {
        use Op::*;
        let r = |x: &[Reg]| x.iter().map(|&r| r as usize).collect::<Vec<_>>();
        let span = |first: Reg, n: u16| (first as usize..first as usize + n as usize).collect::<Vec<_>>();
        match *self {
            Const { dst, .. }
            | LoadCell { dst, .. }
            | CellCmpI { dst, .. }
            | ItemsMark { dst }
            | ScratchEnter { dst, .. } => r(&[dst]),
            Copy { dst, src } | Neg { dst, src } | Not { dst, src } => r(&[dst, src]),
            Load { dst, addr } => r(&[dst, addr]),
            Arith { dst, a, b, .. } | Cmp { dst, a, b, .. } | Pick { dst, a, b, .. } => r(&[dst, a, b]),
            ArithI { dst, a, .. } | CmpI { dst, a, .. } => r(&[dst, a]),
            Jump { .. } | Halt | JumpUnlessCellI { .. } | JumpUnlessCellRemI { .. } => Vec::new(),
            JumpIfZero { x, .. } | JumpIfNonZero { x, .. } | Ret { src: x } | ItemsPush { x } => r(&[x]),
            JumpUnless { a, b, .. } => r(&[a, b]),
            JumpUnlessI { a, .. } | JumpUnlessRemI { a, .. } => r(&[a]),
            ElemAddr { dst, list, index, .. } => r(&[dst, list, index]),
            ElemAddrS { dst, index, .. } | LoadElemS { dst, index, .. } => r(&[dst, index]),
            StoreElemS { index, src, .. } => r(&[index, src]),
            StoreElemSI { index, .. } => r(&[index]),
            StoreCell { src, .. } | StoreArithCell { src, .. } => r(&[src]),
            Store { addr, src } | StoreArith { addr, src, .. } => r(&[addr, src]),
            RangeLen { dst, lo, hi } => r(&[dst, lo, hi]),
            SetCount { dst, addr, .. } | SumList { dst, addr } => r(&[dst, addr]),
            SumListS { dst, .. } => r(&[dst]),
            ListHas { dst, addr, x } | IndexIn { dst, addr, x } | SetHas { dst, addr, x, .. } => r(&[dst, addr, x]),
            SetHasI { dst, addr, .. } => r(&[dst, addr]),
            SetAdd { addr, x, .. } | SetRemove { addr, x, .. } | Push { addr, x, .. } => r(&[addr, x]),
            Clear { addr, .. } | ItemsList { addr } | ItemsIndices { addr } | ItemsSet { addr, .. } => r(&[addr]),
            RangeInit { var, hi, .. } | RangeNext { var, hi, .. } => r(&[var, hi]),
            CountNext { var, idx, limit, .. } => r(&[var, idx, limit]),
            ListNext { var, idx, addr, .. } => r(&[var, idx, addr]),
            SetNext { var, state, addr, .. } => r(&[var, state, state + 1, addr]),
            ItemsNext { var, idx, .. } => r(&[var, idx]),
            ItemsDrop { mark } => r(&[mark]),
            SumAdd { acc, x } | CountAdd { acc, x } => r(&[acc, x]),
            PickAcc { acc, found, x, .. } => r(&[acc, found, x]),
            NeedFound { found, .. } => r(&[found]),
            Call { dst, args, n, .. } => [r(&[dst]), span(args, n)].concat(),
            Choice { counter, .. } => r(&[counter]),
            // A move's arguments are read four at a time.
            Emit { n, .. } => span(0, n.max(super::MAX_MOVE_ARGS as u16)),
            EmitRange {
                n, var, hi, counter, ..
            } => [span(0, n.max(super::MAX_MOVE_ARGS as u16)), r(&[var, hi, counter])].concat(),
            Step => Vec::new(),
            LoadConst { dst, addr } => r(&[dst, addr]),
            ConstElemAddr { dst, list, index, .. } => r(&[dst, list, index]),
            ConstListNext { var, idx, addr, .. } => r(&[var, idx, addr]),
            ConstListHas { dst, addr, x } => r(&[dst, addr, x]),
            ListFromItems { addr, mark, .. } | SetFromItems { addr, mark, .. } => r(&[addr, mark]),
            ItemsCmp { dst, a, b, .. } => r(&[dst, a, b]),
            CopyCells { dst, src, .. } | CopyConst { dst, src, .. } => r(&[dst, src]),
            Pop { addr, .. } | Sort { addr } => r(&[addr]),
            RemoveAt { addr, index, .. } => r(&[addr, index]),
            ListRemove { addr, x } => r(&[addr, x]),
            Insert { addr, index, x, .. } => r(&[addr, index, x]),
        }
    }

    /// Where the instruction may jump.
    pub fn target(&self) -> Option<Label> {
        use Op::*;
        match *self {
            Jump { to }
            | JumpIfZero { to, .. }
            | JumpIfNonZero { to, .. }
            | JumpUnless { to, .. }
            | JumpUnlessI { to, .. }
            | JumpUnlessCellI { to, .. }
            | JumpUnlessRemI { to, .. }
            | JumpUnlessCellRemI { to, .. }
            | RangeInit { to, .. }
            | RangeNext { to, .. }
            | CountNext { to, .. }
            | ListNext { to, .. }
            | SetNext { to, .. }
            | ItemsNext { to, .. }
            | ConstListNext { to, .. } => Some(to),
            _ => None,
        }
    }
}

impl Code {
    /// Checks what the executor relies on without checking again: every
    /// instruction of the rule at `entry` names registers inside its frame
    /// and jumps inside the rule, which ends with `ret` or `halt`, and the
    /// functions and sets it names exist.
    pub fn check(&self, entry: Entry) -> Result<(), String> {
        let (start, end) = (entry.start as usize, entry.end as usize);
        if start >= end || end > self.ops.len() {
            return Err(format!("rule at {start:04}..{end:04} is empty or outside the code"));
        }
        if !matches!(self.ops[end - 1], Op::Ret { .. } | Op::Halt) {
            return Err(format!("rule at {start:04} does not end with ret or halt"));
        }
        for (i, op) in self.ops[start..end].iter().enumerate() {
            let i = start + i;
            if let Some(r) = op.registers().into_iter().find(|&r| r >= entry.frame) {
                return Err(format!("{i:04} `{op}` uses r{r}, past the frame of {}", entry.frame));
            }
            if let Some(to) = op.target()
                && !(start..end).contains(&(to as usize))
            {
                return Err(format!("{i:04} `{op}` jumps outside its rule"));
            }
            let set = match *op {
                Op::SetCount { set, .. }
                | Op::SetHas { set, .. }
                | Op::SetAdd { set, .. }
                | Op::SetRemove { set, .. }
                | Op::SetNext { set, .. }
                | Op::ItemsSet { set, .. } => Some(set),
                _ => None,
            };
            if set.is_some_and(|s| s as usize >= self.sets.len()) {
                return Err(format!("{i:04} `{op}` names no set"));
            }
            if let Op::Call { func, .. } = *op
                && func as usize >= self.fns.len()
            {
                return Err(format!("{i:04} `{op}` names no function"));
            }
        }
        Ok(())
    }

    /// Every rule's entry.
    pub fn entries(&self) -> Vec<Entry> {
        let mut out: Vec<Entry> = self.fns.clone();
        for m in &self.moves {
            out.extend([Some(m.generate), Some(m.body), m.then, m.weight].into_iter().flatten());
        }
        for e in &self.ends {
            e.cond.entries(&mut out);
            for v in [e.player, e.payoff].into_iter().flatten() {
                if let Value::Code(entry) = v {
                    out.push(entry);
                }
            }
            out.extend(e.scores);
        }
        out
    }

    /// An instruction as the listing shows it: moves and functions by name.
    fn show(&self, op: &Op) -> String {
        let name = |names: &[String], i: u16| names.get(i as usize).cloned().unwrap_or_else(|| format!("#{i}"));
        match *op {
            Op::Call { dst, func, args, n } => {
                let name = name(&self.fn_names, func);
                format!("call       r{dst} = {name}({})", regs(args, n))
            }
            Op::Choice { counter, kind } => {
                format!("choice     r{counter} += 1 ({} tried)", name(&self.move_names, kind))
            }
            Op::Emit { kind, n } => format!("emit       {}({})", name(&self.move_names, kind), regs(0, n)),
            Op::EmitRange {
                kind,
                n,
                var,
                hi,
                counter,
            } => format!(
                "emit       {}({}) for r{var} in r{var}..=r{hi}, r{counter} += each",
                name(&self.move_names, kind),
                regs(0, n)
            ),
            _ => op.to_string(),
        }
    }
}

/// `r2, r3, r4`: `n` registers from `first`.
fn regs(first: Reg, n: u16) -> String {
    (0..n)
        .map(|i| format!("r{}", first as usize + i as usize))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The source a span covers, on one line and shortened; or where it is.
fn snippet(source: &str, span: Span) -> String {
    let Some(text) = source.get(span.start..span.end) else {
        return format!("{}..{}", span.start, span.end);
    };
    let squeezed: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let (line, col) = line_col(source, span.start);
    if squeezed.chars().count() <= 40 {
        format!("{squeezed}  ({line}:{col})")
    } else {
        let short: String = squeezed.chars().take(37).collect();
        format!("{short}...  ({line}:{col})")
    }
}

fn line_col(source: &str, at: usize) -> (usize, usize) {
    let before = &source[..at.min(source.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rfind('\n').map_or(before.len(), |n| before.len() - n - 1) + 1;
    (line, col)
}

fn arith(op: ArithOp) -> &'static str {
    match op {
        ArithOp::Add => "add",
        ArithOp::Sub => "sub",
        ArithOp::Mul => "mul",
        ArithOp::Div => "div",
        ArithOp::Rem => "rem",
    }
}

fn cmp(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "==",
        CmpOp::Ne => "!=",
        CmpOp::Lt => "<",
        CmpOp::Le => "<=",
        CmpOp::Gt => ">",
        CmpOp::Ge => ">=",
    }
}

fn arith_sym(op: ArithOp) -> &'static str {
    match op {
        ArithOp::Add => "+",
        ArithOp::Sub => "-",
        ArithOp::Mul => "*",
        ArithOp::Div => "/",
        ArithOp::Rem => "%",
    }
}

/// `r3`, or `r3 + 1` / `r3 - 1`.
struct Plus(Reg, i32);

impl fmt::Display for Plus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.1 {
            0 => write!(f, "r{}", self.0),
            n if n < 0 => write!(f, "r{} - {}", self.0, -(n as i64)),
            n => write!(f, "r{} + {n}", self.0),
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Op::*;
        match *self {
            Const { dst, value } => write!(f, "const      r{dst} = {value}"),
            Copy { dst, src } => write!(f, "copy       r{dst} = r{src}"),
            LoadCell { dst, cell } => write!(f, "load       r{dst} = cell[{cell}]"),
            Load { dst, addr } => write!(f, "load       r{dst} = cell[r{addr}]"),
            Neg { dst, src } => write!(f, "neg        r{dst} = -r{src}"),
            Not { dst, src } => write!(f, "not        r{dst} = not r{src}"),
            Arith { op, dst, a, b } => write!(f, "{:<10} r{dst} = r{a} {} r{b}", arith(op), arith_sym(op)),
            ArithI { op, dst, a, imm } => write!(f, "{:<10} r{dst} = r{a} {} {imm}", arith(op), arith_sym(op)),
            Cmp { op, dst, a, b } => write!(f, "cmp        r{dst} = r{a} {} r{b}", cmp(op)),
            CmpI { op, dst, a, imm } => write!(f, "cmp        r{dst} = r{a} {} {imm}", cmp(op)),
            Pick { op, dst, a, b } => {
                let name = if matches!(op, CmpOp::Le | CmpOp::Lt) {
                    "min"
                } else {
                    "max"
                };
                write!(f, "{name:<10} r{dst} = {name}(r{a}, r{b})")
            }
            CellCmpI { op, dst, cell, imm } => write!(f, "cmp        r{dst} = cell[{cell}] {} {imm}", cmp(op)),
            Jump { to } => write!(f, "jump       {to:04}"),
            JumpIfZero { x, to } => write!(f, "jump       {to:04} if not r{x}"),
            JumpIfNonZero { x, to } => write!(f, "jump       {to:04} if r{x}"),
            JumpUnless { op, a, b, to } => write!(f, "jump       {to:04} unless r{a} {} r{b}", cmp(op)),
            JumpUnlessI { op, a, imm, to } => write!(f, "jump       {to:04} unless r{a} {} {imm}", cmp(op)),
            JumpUnlessCellI { op, cell, imm, to } => {
                write!(f, "jump       {to:04} unless cell[{cell}] {} {imm}", cmp(op))
            }
            JumpUnlessRemI { op, a, m, imm, to } => {
                write!(f, "jump       {to:04} unless r{a} % {m} {} {imm}", cmp(op))
            }
            JumpUnlessCellRemI { op, cell, m, imm, to } => {
                write!(f, "jump       {to:04} unless cell[{cell}] % {m} {} {imm}", cmp(op))
            }
            Ret { src } => write!(f, "ret        r{src}"),
            Halt => write!(f, "halt"),
            ElemAddr { dst, list, index, size } => {
                write!(f, "elem       r{dst} = &cell[r{list}][r{index}] (size {size})")
            }
            ElemAddrS { dst, list, index, size } => {
                write!(f, "elem       r{dst} = &cell[{list}][r{index}] (size {size})")
            }
            LoadElemS { dst, list, index, add } => write!(f, "load       r{dst} = cell[{list}][{}]", Plus(index, add)),
            StoreElemS {
                op,
                list,
                index,
                add,
                src,
            } => match op {
                None => write!(f, "store      cell[{list}][{}] = r{src}", Plus(index, add)),
                Some(op) => write!(
                    f,
                    "store      cell[{list}][{}] {}= r{src}",
                    Plus(index, add),
                    arith_sym(op)
                ),
            },
            StoreElemSI {
                op,
                list,
                index,
                add,
                imm,
            } => write!(
                f,
                "store      cell[{list}][{}] {}= {imm}",
                Plus(index, add),
                arith_sym(op)
            ),
            StoreCell { cell, src } => write!(f, "store      cell[{cell}] = r{src}"),
            Store { addr, src } => write!(f, "store      cell[r{addr}] = r{src}"),
            StoreArithCell { op, cell, src } => write!(f, "store      cell[{cell}] {}= r{src}", arith_sym(op)),
            StoreArith { op, addr, src } => write!(f, "store      cell[r{addr}] {}= r{src}", arith_sym(op)),
            RangeLen { dst, lo, hi } => write!(f, "len        r{dst} = len(r{lo}..r{hi})"),
            SetCount { dst, addr, set } => write!(f, "len        r{dst} = len(set cell[r{addr}]) (set {set})"),
            SumList { dst, addr } => write!(f, "sum        r{dst} = sum(cell[r{addr}])"),
            SumListS { dst, list } => write!(f, "sum        r{dst} = sum(cell[{list}])"),
            ListHas { dst, addr, x } => write!(f, "has        r{dst} = r{x} in list cell[r{addr}]"),
            IndexIn { dst, addr, x } => write!(f, "has        r{dst} = r{x} in indexes of cell[r{addr}]"),
            SetHas { dst, addr, x, set } => write!(f, "has        r{dst} = r{x} in set cell[r{addr}] (set {set})"),
            SetHasI { dst, addr, bit } => write!(f, "has        r{dst} = bit {bit} of set cell[r{addr}]"),
            SetAdd { addr, x, set } => write!(f, "set.add    cell[r{addr}] (set {set}) += r{x}"),
            SetRemove { addr, x, set } => write!(f, "set.remove cell[r{addr}] (set {set}) -= r{x}"),
            Push { addr, x, cap } => write!(f, "push       cell[r{addr}] += [r{x}] (cap {cap})"),
            Clear { addr, words } => write!(f, "clear      cell[r{addr}] ({words} cells)"),
            RangeInit { var, hi, spend, to } => {
                let spend = if spend { ", spend" } else { "" };
                write!(f, "range      r{var}..=r{hi}, empty: {to:04}{spend}")
            }
            RangeNext { var, hi, to } => write!(f, "next       r{var} < r{hi}: r{var} += 1, {to:04}"),
            CountNext { var, idx, limit, to } => {
                write!(f, "next       r{var} = r{idx}++ while < r{limit}, done: {to:04}")
            }
            ListNext { var, idx, addr, to } => {
                write!(f, "next       r{var} = cell[r{addr}][r{idx}++], done: {to:04}")
            }
            SetNext {
                var,
                state,
                addr,
                set,
                to,
            } => write!(
                f,
                "next       r{var} = next of set cell[r{addr}] (set {set}, bits r{state}), done: {to:04}"
            ),
            ItemsMark { dst } => write!(f, "items      r{dst} = mark"),
            ItemsList { addr } => write!(f, "items      push list cell[r{addr}]"),
            ItemsIndices { addr } => write!(f, "items      push indexes of cell[r{addr}]"),
            ItemsSet { addr, set } => write!(f, "items      push set cell[r{addr}] (set {set})"),
            ItemsPush { x } => write!(f, "items      push r{x}"),
            ItemsNext { var, idx, to } => write!(f, "next       r{var} = items[r{idx}++], done: {to:04}"),
            ItemsDrop { mark } => write!(f, "items      drop from r{mark}"),
            SumAdd { acc, x } => write!(f, "sum        r{acc} += r{x}"),
            CountAdd { acc, x } => write!(f, "count      r{acc} += (r{x} != 0)"),
            PickAcc { op, acc, found, x } => {
                let name = if matches!(op, CmpOp::Le | CmpOp::Lt) {
                    "min"
                } else {
                    "max"
                };
                write!(f, "{name:<10} r{acc} = {name}(r{acc}, r{x}) (found r{found})")
            }
            NeedFound { found, max } => {
                let name = if max { "max" } else { "min" };
                write!(f, "{name:<10} fail if not r{found}: empty")
            }
            Call { dst, func, args, n } => {
                if n == 0 {
                    write!(f, "call       r{dst} = fn{func}()")
                } else {
                    write!(
                        f,
                        "call       r{dst} = fn{func}(r{args}..r{})",
                        args as usize + n as usize - 1
                    )
                }
            }
            Choice { counter, kind } => write!(f, "choice     r{counter} += 1 (#{kind} tried)"),
            Emit { kind, n } => write!(f, "emit       #{kind}({})", regs(0, n)),
            EmitRange {
                kind,
                n,
                var,
                hi,
                counter,
            } => write!(
                f,
                "emit       #{kind}({}) for r{var} in r{var}..=r{hi}, r{counter} += each",
                regs(0, n)
            ),
            Step => write!(f, "step"),
            LoadConst { dst, addr } => write!(f, "load       r{dst} = const[r{addr}]"),
            ConstElemAddr { dst, list, index, size } => {
                write!(f, "elem       r{dst} = &const[r{list}][r{index}] (size {size})")
            }
            ConstListNext { var, idx, addr, to } => {
                write!(f, "next       r{var} = const[r{addr}][r{idx}++], done: {to:04}")
            }
            ConstListHas { dst, addr, x } => write!(f, "has        r{dst} = r{x} in list const[r{addr}]"),
            ListFromItems { addr, mark, cap } => {
                write!(f, "fill       list cell[r{addr}] = items from r{mark} (cap {cap})")
            }
            SetFromItems { addr, mark, set } => {
                write!(f, "fill       set cell[r{addr}] (set {set}) = items from r{mark}")
            }
            ItemsCmp { op, dst, a, b, sets } => {
                let what = if sets { "sets" } else { "lists" };
                write!(
                    f,
                    "cmp        r{dst} = {what} items[r{a}..r{b}] {} items[r{b}..]",
                    cmp(op)
                )
            }
            CopyCells { dst, src, n } => write!(f, "copy       cell[r{dst}..] = cell[r{src}..] ({n} cells)"),
            CopyConst { dst, src, n } => write!(f, "copy       cell[r{dst}..] = const[r{src}..] ({n} cells)"),
            Pop { addr, size } => write!(f, "pop        cell[r{addr}] (size {size})"),
            RemoveAt { addr, index, size } => write!(f, "remove     cell[r{addr}][r{index}] (size {size})"),
            ListRemove { addr, x } => write!(f, "remove     first r{x} from cell[r{addr}]"),
            Insert { addr, index, x, cap } => {
                write!(f, "insert     cell[r{addr}][r{index}] = r{x} (cap {cap})")
            }
            Sort { addr } => write!(f, "sort       cell[r{addr}]"),
            ScratchEnter { dst, size } => write!(f, "scratch    r{dst} = &{size} new cells"),
        }
    }
}
