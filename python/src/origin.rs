//! What a loaded game remembers besides its rules: how it was loaded (to
//! pickle it), and its action numbering, made once when first asked for.
//!
//! Unpickling a game while the same game (same text, parameters and engine)
//! is still loaded in this process gives back that game: a state pickled,
//! sent to a worker process and back then compares equal to the states of
//! the game it came from.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use pyo3::prelude::*;

use gdl::runtime::Interpreted;
use gdl::runtime::encode::Actions;

/// How a game was loaded: enough to load it again.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Origin {
    /// The file's name as given (`games/nim.game`, or `nim` for a bundled game).
    pub name: String,
    pub text: String,
    pub bindings: Vec<(String, String)>,
    /// "jit" or "vm".
    pub engine: String,
}

/// The parts of a game that Python keeps beside the rules.
pub(crate) struct Meta {
    pub origin: Origin,
    /// The action numbering, or why there is none (the message of a `GdlError`).
    pub actions: OnceLock<Result<Actions, String>>,
    /// A weak reference to the Python `Game` of these rules, so that the
    /// states of one game pickle it once, not once each.
    pub object: Mutex<Option<Py<PyAny>>>,
}

impl Meta {
    pub(crate) fn new(origin: Origin) -> Arc<Meta> {
        Arc::new(Meta {
            origin,
            actions: OnceLock::new(),
            object: Mutex::new(None),
        })
    }
}

type Live = (Weak<Interpreted>, Weak<Meta>);

fn registry() -> &'static Mutex<HashMap<Origin, Live>> {
    static LIVE: OnceLock<Mutex<HashMap<Origin, Live>>> = OnceLock::new();
    LIVE.get_or_init(Default::default)
}

/// Remembers `game` as the live game of its origin (the last loaded wins).
pub(crate) fn remember(game: &Arc<Interpreted>, meta: &Arc<Meta>) {
    let mut live = registry().lock().unwrap_or_else(|e| e.into_inner());
    // Forget the games dropped since, so the table does not grow with every load.
    live.retain(|_, (g, _)| g.strong_count() > 0);
    live.insert(meta.origin.clone(), (Arc::downgrade(game), Arc::downgrade(meta)));
}

/// The game of `origin` still loaded in this process, if any.
pub(crate) fn find(origin: &Origin) -> Option<(Arc<Interpreted>, Arc<Meta>)> {
    let live = registry().lock().unwrap_or_else(|e| e.into_inner());
    let (g, m) = live.get(origin)?;
    Some((g.upgrade()?, m.upgrade()?))
}
