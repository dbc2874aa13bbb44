//! Where each condition of a move's `requires` is tested while the legal
//! moves are generated (`lower_code::Builder::generate`): as soon as the
//! arguments it reads are chosen, so that move generation costs in
//! proportion to the moves that can be legal, not to the product of the
//! arguments' domains.

use super::{Coll, Expr, Place};

/// The conditions of move `m`'s `requires`, each `and` split into its
/// parts, in order, each with the stage it is tested at: the number of
/// arguments bound when it is (see `Builder::generate`). A condition's
/// stage is one past the last argument it reads, and no earlier than the
/// stage of the condition before it; not `early`, every stage is the last.
///
/// The stages are read from `written`, the move before its calls were
/// inlined (`m` itself when they were not): inlining can hide that a
/// condition reads an argument (a function that ignores its parameter),
/// and the stage decides which of two failures a position meets first,
/// which no optimisation may change. An `and` is split where it is split in
/// `written`; one that inlining made or folded stays whole, at the stage of
/// the last of the parts it came from.
pub(super) fn staged_conditions(m: &super::MoveKind, written: &super::MoveKind, early: bool) -> Vec<(usize, Expr)> {
    let n = m.args.len();
    let mut stage = 0;
    let mut stage_of = |c: &Expr| {
        stage = match early {
            true => stage.max(args_read(c, written).map_or(0, |last| last + 1)).min(n),
            false => n,
        };
        stage
    };
    fn split(w: &Expr, e: &Expr, stage_of: &mut dyn FnMut(&Expr) -> usize, out: &mut Vec<(usize, Expr)>) {
        match (w, e) {
            (Expr::And(wa, wb), Expr::And(a, b)) => {
                split(wa, a, stage_of, out);
                split(wb, b, stage_of, out);
            }
            _ => {
                // The parts of `w`, in order: the last one's stage is theirs.
                let mut last = 0;
                each_part(w, &mut |p| last = stage_of(p));
                out.push((last, e.clone()));
            }
        }
    }
    fn each_part(e: &Expr, f: &mut dyn FnMut(&Expr)) {
        match e {
            Expr::And(a, b) => {
                each_part(a, f);
                each_part(b, f);
            }
            _ => f(e),
        }
    }
    let mut out = Vec::new();
    debug_assert_eq!(
        written.requires.len(),
        m.requires.len(),
        "inlining keeps every `requires`"
    );
    for (w, e) in written.requires.iter().zip(&m.requires) {
        split(w, e, &mut stage_of, &mut out);
    }
    out
}

/// The last of `m`'s arguments that `e` reads, if it reads one.
fn args_read(e: &Expr, m: &super::MoveKind) -> Option<usize> {
    let arg_of = |local: usize| m.args.iter().position(|a| a.local == local);
    fn place_local(p: &Place) -> Option<usize> {
        match p {
            Place::Local(l) => Some(*l),
            Place::Elem { list, .. } => place_local(list),
            Place::Static(_) | Place::Const(_) => None,
        }
    }
    let mut last: Option<usize> = None;
    let mut e = e.clone();
    super::walk(&mut e, &mut |x| {
        let local = match x {
            Expr::Local(l) => Some(*l),
            Expr::Load(p) => place_local(p),
            Expr::Len(c) | Expr::Contains(c, _) | Expr::Agg { coll: c, .. } => match &**c {
                Coll::List { place } | Coll::Indices { place } | Coll::Set { place, .. } => place_local(place),
                Coll::Range { .. } | Coll::Literal(_) => None,
            },
            _ => None,
        };
        if let Some(arg) = local.and_then(arg_of) {
            last = Some(last.map_or(arg, |l: usize| l.max(arg)));
        }
    });
    last
}
