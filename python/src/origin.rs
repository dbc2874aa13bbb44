//! What a loaded game remembers besides its rules: how it was loaded (to
//! pickle it), and its action numbering, made once when first asked for.
//!
//! Unpickling a game while the same game (same text, parameters and engine)
//! is still loaded in this process gives back that game: a state pickled,
//! sent to a worker process and back then compares equal to the states of
//! the game it came from.
//!
//! Loading a game compiled lately in this process (same name, text,
//! parameters and engine) takes its compiled rules from a small cache
//! instead of compiling them again: Cranelift takes tens of milliseconds
//! where a loop of loads wants a few. Each load is still a game of its own.

use std::collections::{HashMap, VecDeque};
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
    /// The parameters as given, typed.
    pub bindings: Vec<(String, gdl::ParamValue)>,
    /// "jit" or "vm".
    pub engine: String,
}

/// The parts of a game that Python keeps beside the rules.
pub(crate) struct Meta {
    pub origin: Origin,
    /// The action numbering, or why there is none (the message of a
    /// `GdlError`): shared by the loads of one cached compilation.
    pub actions: Arc<OnceLock<Result<Actions, String>>>,
    /// A weak reference to the Python `Game` of these rules, so that the
    /// states of one game pickle it once, not once each.
    pub object: Mutex<Option<Py<PyAny>>>,
}

impl Meta {
    pub(crate) fn new(origin: Origin, actions: Arc<OnceLock<Result<Actions, String>>>) -> Arc<Meta> {
        Arc::new(Meta {
            origin,
            actions,
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

/// Compiled rules and their action numbering, as the cache keeps them.
pub(crate) type Compiled = (Interpreted, Arc<OnceLock<Result<Actions, String>>>);

/// How many compilations the cache keeps: the games loaded last. Few, as
/// each holds its machine code whether Python still uses it or not.
const CACHED: usize = 8;

fn cache() -> &'static Mutex<VecDeque<(Origin, Compiled)>> {
    static CACHE: OnceLock<Mutex<VecDeque<(Origin, Compiled)>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The rules of `origin` as compiled lately in this process, if the cache
/// has them: a copy that shares their code (and is a game of its own).
pub(crate) fn cached(origin: &Origin) -> Option<Compiled> {
    let mut cache = cache().lock().unwrap_or_else(|e| e.into_inner());
    let at = cache.iter().position(|(o, _)| o == origin)?;
    let hit = cache.remove(at)?;
    let copy = (hit.1.0.clone(), hit.1.1.clone());
    cache.push_front(hit);
    Some(copy)
}

/// Keeps the rules of `origin` for the next load of it, forgetting the
/// compilation used least lately past [`CACHED`].
pub(crate) fn cache_compiled(origin: &Origin, compiled: &Compiled) {
    let mut cache = cache().lock().unwrap_or_else(|e| e.into_inner());
    cache.retain(|(o, _)| o != origin);
    cache.push_front((origin.clone(), (compiled.0.clone(), compiled.1.clone())));
    cache.truncate(CACHED);
}
