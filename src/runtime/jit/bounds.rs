//! The bounds of values while translating: what lets `compile` leave out a
//! check that cannot fail. A cell's value is bounded by its width, a
//! comparison is 0 or 1, and a sum of bounded values is bounded; where the
//! bounds show that an addition cannot overflow or an index cannot leave its
//! list, the check the VM makes is known to pass and costs nothing.
//!
//! A bound is a fact about one SSA value, true wherever the value is defined,
//! so it needs no flow analysis: a value that merges several paths (a block
//! parameter) has no bounds, and is checked as before. Two narrower kinds of
//! fact are kept by `compile`: a range loop's variable inside the loop
//! (`stepped_loop`), and what a comparison that held says of its operands
//! (`given`), in the blocks that only the path through it reaches.

use cranelift_codegen::entity::SecondaryMap;
use cranelift_codegen::ir::Value;
use cranelift_codegen::ir::condcodes::IntCC;

use crate::ir::code::{Op, Reg};
use crate::ir::{ArithOp, CmpOp};
use crate::runtime::state::NIBBLE;

/// `lo..=hi`, the values a value can take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Bounds {
    pub lo: i64,
    pub hi: i64,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds::ANY
    }
}

impl Bounds {
    pub const ANY: Bounds = Bounds {
        lo: i64::MIN,
        hi: i64::MAX,
    };
    pub const BOOL: Bounds = Bounds { lo: 0, hi: 1 };

    pub fn exact(k: i64) -> Bounds {
        Bounds { lo: k, hi: k }
    }

    /// The values a cell of `width` holds.
    pub fn of_width(width: u8) -> Bounds {
        match width {
            NIBBLE => Bounds { lo: 0, hi: 15 },
            1 => Bounds::of_bits(8),
            2 => Bounds::of_bits(16),
            4 => Bounds::of_bits(32),
            _ => Bounds::ANY,
        }
    }

    fn of_bits(bits: u32) -> Bounds {
        Bounds {
            lo: -(1 << (bits - 1)),
            hi: (1 << (bits - 1)) - 1,
        }
    }

    /// `x + y` for every `x` here and `y` in `o`, where none overflows.
    pub fn add(self, o: Bounds) -> Option<Bounds> {
        Bounds::fit(self.wide(ArithOp::Add, o))
    }

    /// `x - y`, where none overflows.
    pub fn sub(self, o: Bounds) -> Option<Bounds> {
        Bounds::fit(self.wide(ArithOp::Sub, o))
    }

    /// `x * y`, where none overflows.
    pub fn mul(self, o: Bounds) -> Option<Bounds> {
        Bounds::fit(self.wide(ArithOp::Mul, o))
    }

    /// The result of `x op y` (add, subtract or multiply) once checked
    /// not to overflow: the exact range cut to 64 bits, so that a
    /// following `x - 1` after an `x + 1` needs no check of its own.
    pub fn checked(self, op: ArithOp, o: Bounds) -> Bounds {
        let (lo, hi) = self.wide(op, o);
        let cut = |v: i128| v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
        Bounds {
            lo: cut(lo),
            hi: cut(hi),
        }
    }

    /// The range of `x op y` computed in 128 bits (the extremes of a
    /// product are at the corners).
    fn wide(self, op: ArithOp, o: Bounds) -> (i128, i128) {
        let (a, b, c, d) = (
            i128::from(self.lo),
            i128::from(self.hi),
            i128::from(o.lo),
            i128::from(o.hi),
        );
        match op {
            ArithOp::Add => (a + c, b + d),
            ArithOp::Sub => (a - d, b - c),
            _ => {
                let corners = [a * c, a * d, b * c, b * d];
                let lo = corners.iter().copied().min().unwrap_or(0);
                let hi = corners.iter().copied().max().unwrap_or(0);
                (lo, hi)
            }
        }
    }

    /// The bounds `(lo, hi)` where it fits in 64 bits.
    fn fit((lo, hi): (i128, i128)) -> Option<Bounds> {
        Some(Bounds {
            lo: i64::try_from(lo).ok()?,
            hi: i64::try_from(hi).ok()?,
        })
    }

    /// What `x` or `y` picked by `x op y` (`Op::Pick`: a minimum for `<`
    /// and `<=`, a maximum for `>` and `>=`) can be: tighter than the union
    /// of both, `min(i + n, 4)` is at most 4.
    pub fn pick(self, op: CmpOp, o: Bounds) -> Bounds {
        match op {
            CmpOp::Le | CmpOp::Lt => Bounds {
                lo: self.lo.min(o.lo),
                hi: self.hi.min(o.hi),
            },
            CmpOp::Ge | CmpOp::Gt => Bounds {
                lo: self.lo.max(o.lo),
                hi: self.hi.max(o.hi),
            },
            _ => self.union(o),
        }
    }

    /// `-x`, where it does not overflow.
    pub fn neg(self) -> Option<Bounds> {
        Bounds::fit((-i128::from(self.hi), -i128::from(self.lo)))
    }

    /// What both bounds say of one value.
    pub fn meet(self, o: Bounds) -> Bounds {
        Bounds {
            lo: self.lo.max(o.lo),
            hi: self.hi.min(o.hi),
        }
    }

    /// Either of two values.
    pub fn union(self, o: Bounds) -> Bounds {
        Bounds {
            lo: self.lo.min(o.lo),
            hi: self.hi.max(o.hi),
        }
    }
}

/// Whether `a cc b` holds for every `a` in `x` and `b` in `y` (`Some(true)`),
/// for none (`Some(false)`), or depends on the values (`None`). Unsigned
/// comparisons of bounds are decided only where both sides are never
/// negative; of constants, always.
pub(super) fn decide(cc: IntCC, x: Bounds, y: Bounds) -> Option<bool> {
    if x.lo == x.hi && y.lo == y.hi {
        return Some(holds(cc, x.lo, y.lo));
    }
    let signed = match cc {
        IntCC::UnsignedLessThan => IntCC::SignedLessThan,
        IntCC::UnsignedLessThanOrEqual => IntCC::SignedLessThanOrEqual,
        IntCC::UnsignedGreaterThan => IntCC::SignedGreaterThan,
        IntCC::UnsignedGreaterThanOrEqual => IntCC::SignedGreaterThanOrEqual,
        other => other,
    };
    if signed != cc && (x.lo < 0 || y.lo < 0) {
        return None;
    }
    let less = |x: Bounds, y: Bounds| match () {
        _ if x.hi < y.lo => Some(true),
        _ if x.lo >= y.hi => Some(false),
        _ => None,
    };
    let not = |o: Option<bool>| o.map(|b| !b);
    let equal = match () {
        _ if x.hi < y.lo || y.hi < x.lo => Some(false),
        _ if x.lo == x.hi && x == y => Some(true),
        _ => None,
    };
    match signed {
        IntCC::SignedLessThan => less(x, y),
        IntCC::SignedGreaterThanOrEqual => not(less(x, y)),
        IntCC::SignedGreaterThan => less(y, x),
        IntCC::SignedLessThanOrEqual => not(less(y, x)),
        IntCC::Equal => equal,
        IntCC::NotEqual => not(equal),
        _ => None,
    }
}

/// Whether `a cc b` holds.
fn holds(cc: IntCC, a: i64, b: i64) -> bool {
    let (ua, ub) = (a as u64, b as u64);
    match cc {
        IntCC::Equal => a == b,
        IntCC::NotEqual => a != b,
        IntCC::SignedLessThan => a < b,
        IntCC::SignedLessThanOrEqual => a <= b,
        IntCC::SignedGreaterThan => a > b,
        IntCC::SignedGreaterThanOrEqual => a >= b,
        IntCC::UnsignedLessThan => ua < ub,
        IntCC::UnsignedLessThanOrEqual => ua <= ub,
        IntCC::UnsignedGreaterThan => ua > ub,
        IntCC::UnsignedGreaterThanOrEqual => ua >= ub,
    }
}

/// What is known of `x` where `x cc y` holds, `x` in `s` and `y` in
/// `other` (signed comparisons; the others say nothing here).
pub(super) fn given(cc: IntCC, s: Bounds, other: Bounds) -> Bounds {
    let bound = match cc {
        IntCC::SignedLessThan => Bounds {
            lo: i64::MIN,
            hi: other.hi.saturating_sub(1),
        },
        IntCC::SignedLessThanOrEqual => Bounds {
            lo: i64::MIN,
            hi: other.hi,
        },
        IntCC::SignedGreaterThan => Bounds {
            lo: other.lo.saturating_add(1),
            hi: i64::MAX,
        },
        IntCC::SignedGreaterThanOrEqual => Bounds {
            lo: other.lo,
            hi: i64::MAX,
        },
        IntCC::Equal => other,
        _ => Bounds::ANY,
    };
    s.meet(bound)
}

/// The end of the loop that the `RangeInit` at `init` starts (its
/// `RangeNext`), where its variable goes only from `lo` up to `hi` inside:
/// no instruction between writes the variable or the bound, and no jump
/// from outside the loop lands inside it. `None` where that is not known
/// (an instruction whose writes are not listed here, for one).
pub(super) fn stepped_loop(ops: &[Op], start: usize, end: usize, init: usize) -> Option<usize> {
    let Op::RangeInit { var, hi, .. } = ops[init] else {
        return None;
    };
    let head = init + 1;
    let next = (head..end)
        .find(|&ip| matches!(ops[ip], Op::RangeNext { var: v, to, .. } if v == var && to as usize == head))?;
    for op in &ops[head..next] {
        if writes(op)?.iter().flatten().any(|&r| r == var || r == hi) {
            return None;
        }
    }
    let inside = head..=next;
    let enters = (start..end)
        .any(|ip| !inside.contains(&ip) && ops[ip].target().is_some_and(|t| inside.contains(&(t as usize))));
    (!enters).then_some(next)
}

/// The registers an instruction writes, for those `stepped_loop` lets into
/// a loop; `None` for the rest.
fn writes(op: &Op) -> Option<[Option<Reg>; 2]> {
    use Op::*;
    let one = match *op {
        Const { dst, .. }
        | Copy { dst, .. }
        | LoadCell { dst, .. }
        | Load { dst, .. }
        | Neg { dst, .. }
        | Not { dst, .. }
        | Arith { dst, .. }
        | ArithI { dst, .. }
        | Cmp { dst, .. }
        | CmpI { dst, .. }
        | Pick { dst, .. }
        | CellCmpI { dst, .. }
        | ElemAddr { dst, .. }
        | ElemAddrS { dst, .. }
        | LoadElemS { dst, .. }
        | LoadConst { dst, .. }
        | ConstElemAddr { dst, .. }
        | Call { dst, .. } => Some(dst),
        Choice { counter, .. } => Some(counter),
        RangeNext { var, .. } => Some(var),
        EmitRange { var, counter, .. } => return Some([Some(var), Some(counter)]),
        Jump { .. }
        | JumpIfZero { .. }
        | JumpIfNonZero { .. }
        | JumpUnless { .. }
        | JumpUnlessI { .. }
        | JumpUnlessCellI { .. }
        | JumpUnlessCellRemI { .. }
        | JumpUnlessRemI { .. }
        | Emit { .. }
        | Store { .. }
        | StoreCell { .. }
        | StoreArith { .. }
        | StoreArithCell { .. }
        | StoreElemS { .. }
        | StoreElemSI { .. }
        | RangeInit { .. }
        | Step => None,
        _ => return None,
    };
    Some([one, None])
}

/// The bounds known of each value of one function; `Bounds::ANY` where none is.
#[derive(Default)]
pub(super) struct ValueBounds(SecondaryMap<Value, Bounds>);

impl ValueBounds {
    pub fn get(&self, v: Value) -> Bounds {
        self.0[v]
    }

    /// Notes `s` of `v`, where it says more than nothing.
    pub fn note(&mut self, v: Value, s: Bounds) {
        if s != Bounds::ANY {
            self.0[v] = s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_that_may_overflow_have_no_bounds() {
        let byte = Bounds::of_width(1);
        assert_eq!(byte.add(byte), Some(Bounds { lo: -256, hi: 254 }));
        assert_eq!(byte.sub(Bounds::exact(1)), Some(Bounds { lo: -129, hi: 126 }));
        assert_eq!(Bounds::ANY.add(Bounds::exact(1)), None);
        assert_eq!(Bounds::ANY.add(Bounds::exact(0)), Some(Bounds::ANY));
        assert_eq!(Bounds::exact(i64::MIN).neg(), None);
        assert_eq!(Bounds::ANY.mul(Bounds::exact(1)), Some(Bounds::ANY));
        assert_eq!(Bounds::ANY.mul(Bounds::exact(-1)), None);
        let d = Bounds { lo: -1, hi: 1 };
        assert_eq!(Bounds { lo: 0, hi: 6 }.mul(d), Some(Bounds { lo: -6, hi: 6 }));
        assert_eq!(Bounds::of_width(8).mul(Bounds::exact(2)), None);
    }

    #[test]
    fn a_result_checked_for_overflow_keeps_the_range_cut_to_64_bits() {
        let one = Bounds::exact(1);
        // `x + 1` that did not overflow is above the least value, so `- 1`
        // of it cannot overflow.
        let up = Bounds::ANY.checked(ArithOp::Add, one);
        assert_eq!(
            up,
            Bounds {
                lo: i64::MIN + 1,
                hi: i64::MAX
            }
        );
        assert!(up.sub(one).is_some());
        let byte = Bounds::of_width(1);
        assert_eq!(byte.checked(ArithOp::Sub, one), Bounds { lo: -129, hi: 126 });
        assert_eq!(
            Bounds { lo: -3, hi: 2 }.checked(ArithOp::Mul, Bounds { lo: -5, hi: 4 }),
            Bounds { lo: -12, hi: 15 }
        );
        // `-x` that did not overflow: `x` was not the least value.
        assert_eq!(
            Bounds::ANY.checked(ArithOp::Mul, Bounds::exact(-1)),
            Bounds {
                lo: i64::MIN + 1,
                hi: i64::MAX
            }
        );
    }

    #[test]
    fn a_minimum_is_at_most_the_smaller_high() {
        let sum = Bounds { lo: 2, hi: 200 };
        assert_eq!(sum.pick(CmpOp::Le, Bounds::exact(4)), Bounds { lo: 2, hi: 4 });
        assert_eq!(sum.pick(CmpOp::Gt, Bounds::exact(4)), Bounds { lo: 4, hi: 200 });
        assert_eq!(sum.pick(CmpOp::Eq, Bounds::exact(4)), sum);
    }

    #[test]
    fn cells_are_bounded_by_their_width() {
        assert_eq!(Bounds::of_width(NIBBLE), Bounds { lo: 0, hi: 15 });
        assert_eq!(Bounds::of_width(2), Bounds { lo: -32768, hi: 32767 });
        assert_eq!(
            Bounds::of_width(4),
            Bounds {
                lo: -(1 << 31),
                hi: (1 << 31) - 1
            }
        );
        assert_eq!(Bounds::of_width(8), Bounds::ANY);
        assert_eq!(Bounds::BOOL.union(Bounds::exact(5)), Bounds { lo: 0, hi: 5 });
    }

    /// `r0` goes through `r0..=r1` around `body`, then `halt`.
    fn range_loop(body: &[Op]) -> Vec<Op> {
        let halt = body.len() as u32 + 2;
        let mut ops = vec![Op::RangeInit {
            var: 0,
            hi: 1,
            spend: true,
            to: halt,
        }];
        ops.extend_from_slice(body);
        ops.push(Op::RangeNext { var: 0, hi: 1, to: 1 });
        ops.push(Op::Halt);
        ops
    }

    #[test]
    fn a_loop_variable_stays_in_its_range_unless_written_or_jumped_into() {
        let add = |dst| Op::Arith {
            op: crate::ir::ArithOp::Add,
            dst,
            a: 0,
            b: 0,
        };
        let plain = range_loop(&[add(2), Op::Emit { kind: 0, n: 1 }]);
        assert_eq!(stepped_loop(&plain, 0, plain.len(), 0), Some(3));
        // The variable or the bound written in the body.
        for written in [0, 1] {
            let ops = range_loop(&[add(written)]);
            assert_eq!(stepped_loop(&ops, 0, ops.len(), 0), None, "r{written}");
        }
        // An instruction whose writes are not listed.
        let ops = range_loop(&[Op::Sort { addr: 2 }]);
        assert_eq!(stepped_loop(&ops, 0, ops.len(), 0), None);
        // A jump from after the loop into its body.
        let mut ops = range_loop(&[add(2), add(3)]);
        ops.push(Op::Jump { to: 2 });
        assert_eq!(stepped_loop(&ops, 0, ops.len(), 0), None);
    }

    #[test]
    fn a_comparison_that_held_narrows_the_values() {
        let byte = Bounds::of_width(1);
        assert_eq!(
            given(IntCC::SignedGreaterThanOrEqual, byte, Bounds::exact(0)),
            Bounds { lo: 0, hi: 127 }
        );
        assert_eq!(
            given(IntCC::SignedLessThan, byte, Bounds { lo: 0, hi: 7 }),
            Bounds { lo: -128, hi: 6 }
        );
        assert_eq!(
            given(IntCC::SignedLessThanOrEqual, Bounds::ANY, Bounds::exact(6)),
            Bounds { lo: i64::MIN, hi: 6 }
        );
        assert_eq!(
            given(IntCC::SignedGreaterThan, Bounds::ANY, Bounds::exact(-1)),
            Bounds { lo: 0, hi: i64::MAX }
        );
        assert_eq!(given(IntCC::Equal, byte, Bounds::exact(3)), Bounds::exact(3));
        // Not equal, and unsigned comparisons: nothing learned.
        assert_eq!(given(IntCC::NotEqual, byte, Bounds::exact(3)), byte);
        assert_eq!(given(IntCC::UnsignedLessThan, byte, Bounds::exact(3)), byte);
        // At the edge of the integers: no wrap.
        assert_eq!(
            given(IntCC::SignedLessThan, Bounds::ANY, Bounds::exact(i64::MIN)).hi,
            i64::MIN
        );
    }

    #[test]
    fn comparisons_are_decided_only_where_every_value_agrees() {
        let digit = Bounds { lo: 0, hi: 9 };
        assert_eq!(decide(IntCC::SignedLessThan, digit, Bounds::exact(10)), Some(true));
        assert_eq!(decide(IntCC::SignedLessThan, digit, Bounds::exact(9)), None);
        assert_eq!(decide(IntCC::SignedLessThan, digit, Bounds::exact(0)), Some(false));
        assert_eq!(
            decide(IntCC::SignedGreaterThanOrEqual, digit, Bounds::exact(0)),
            Some(true)
        );
        assert_eq!(decide(IntCC::SignedGreaterThan, digit, Bounds::exact(9)), Some(false));
        assert_eq!(
            decide(IntCC::SignedLessThanOrEqual, digit, Bounds::exact(9)),
            Some(true)
        );
        assert_eq!(decide(IntCC::SignedLessThanOrEqual, digit, Bounds::exact(8)), None);
        assert_eq!(decide(IntCC::Equal, digit, Bounds::exact(12)), Some(false));
        assert_eq!(decide(IntCC::NotEqual, digit, Bounds::exact(-1)), Some(true));
        assert_eq!(decide(IntCC::Equal, Bounds::exact(3), Bounds::exact(3)), Some(true));
        assert_eq!(decide(IntCC::Equal, digit, digit), None);
        assert_eq!(
            decide(IntCC::UnsignedGreaterThanOrEqual, digit, Bounds::exact(10)),
            Some(false)
        );
        // -1 is past every unsigned bound: not decided from signed bounds.
        let byte = Bounds::of_width(1);
        assert_eq!(
            decide(IntCC::UnsignedGreaterThanOrEqual, byte, Bounds::exact(200)),
            None
        );
        assert_eq!(decide(IntCC::UnsignedLessThan, Bounds::ANY, Bounds::exact(1)), None);
        // Constants are always decided, unsigned too.
        assert_eq!(
            decide(IntCC::UnsignedGreaterThanOrEqual, Bounds::exact(-1), Bounds::exact(200)),
            Some(true)
        );
    }
}
