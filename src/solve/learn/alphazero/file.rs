//! A trained network on disk (`gdl train --algorithm alphazero`, read by
//! `az:FILE`): JSON with the header every trained file has (the game, its
//! parameters, a hash of its file's text), how it was trained, the network's
//! shape and its weights. Loading checks each, and the shape against the
//! game's observation vector and numbering of moves, so a network is never
//! used for another game, other parameters or changed rules.

use std::path::Path;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use super::net::{Net, Shape};
use super::train::network_shape;
use crate::fsutil::write_atomic;
use crate::game::FileGame;
use crate::solve::learn::file_header::{Expected, read_checked};

/// What the `format` field of every network file says.
pub const FORMAT: &str = "gdl-alphazero";
/// The version of the layout below; a file of another version is refused.
pub const VERSION: u32 = 1;

/// How a network was trained (all runs together, and the last one's settings).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AzTraining {
    pub iterations: u64,
    pub games: u64,
    pub positions: u64,
    pub games_per_iteration: u64,
    pub simulations: u64,
    pub c_puct: f32,
    pub learning_rate: f32,
    pub seed: u64,
    pub seconds: f64,
    /// Whether the last run was stopped (Ctrl-C, the time limit) before all its iterations.
    pub interrupted: bool,
}

#[derive(Serialize, Deserialize)]
struct Network {
    inputs: usize,
    hidden: Vec<usize>,
    actions: usize,
    /// Each layer's weights (input-major), then its biases: the hidden
    /// layers, the policy head, the value head.
    weights: Vec<f32>,
}

/// The file, field by field, in the order it is written.
#[derive(Serialize, Deserialize)]
struct AzFile {
    format: String,
    version: u32,
    game: String,
    /// The game file as it was named when training; for people only.
    file: String,
    source_hash: String,
    params: IndexMap<String, String>,
    players: Vec<String>,
    /// The gdl that wrote it; for people only.
    gdl_version: String,
    training: AzTraining,
    network: Network,
}

crate::solve::learn::file_header::file_error! {
    /// A network file that cannot be loaded or saved.
    pub enum AzFileError in alphazero {
        noun: "network",
        valid: "network file",
        made: "trained",
        make: "train a network",
        corrupt_help: "the file was damaged or edited; train a new one with `gdl train FILE --algorithm alphazero`",
        format_help: "`gdl train FILE --algorithm alphazero --out NET` writes networks (format \"gdl-alphazero\", version 1)",
        other_game_help: "train a network for this game: gdl train FILE --algorithm alphazero --out NET",
        changed_game_help: "train again on the file as it is now",
        #[error("{path} holds a network that does not fit {game}: {reason}")]
        #[diagnostic(
            code(gdl::alphazero::shape),
            help(
                "the file was written by another version of gdl, whose observation vector or numbering of moves differs; train again"
            )
        )]
        Shape { path: String, game: String, reason: String },
    }
}

/// Writes `net` for `game` to `path`, atomically: a reader sees the old
/// file or the whole new one, never half of it.
pub fn save<G: FileGame>(path: &Path, game: &G, net: &Net, training: &AzTraining) -> Result<(), AzFileError> {
    let unwritable = |reason: String| AzFileError::Unwritable {
        path: path.display().to_string(),
        reason,
    };
    let id = game.id();
    let shape = net.shape();
    let file = AzFile {
        format: FORMAT.into(),
        version: VERSION,
        game: id.game,
        file: id.file,
        source_hash: id.source_hash,
        params: id.params.into_iter().collect(),
        players: id.players,
        gdl_version: env!("CARGO_PKG_VERSION").into(),
        training: training.clone(),
        network: Network {
            inputs: shape.inputs,
            hidden: shape.hidden.clone(),
            actions: shape.actions,
            weights: net.params().to_vec(),
        },
    };
    let mut text = serde_json::to_string(&file).map_err(|e| unwritable(e.to_string()))?;
    text.push('\n');
    write_atomic(path, text.as_bytes()).map_err(|e| unwritable(e.to_string()))
}

/// Reads a network for `game` from `path`, checking that it was trained for
/// this game, these parameters and these rules, and that its shape fits.
pub fn load<G: FileGame>(path: &Path, game: &G) -> Result<(Net, AzTraining), AzFileError> {
    let shown = path.display().to_string();
    let corrupt = |reason: String| AzFileError::corrupt(&shown, reason);
    let id = game.id();
    let expected = Expected::of(FORMAT, VERSION, &id);
    let file: AzFile = read_checked(path, &expected).map_err(|e| AzFileError::from_header(e, &shown, &id))?;
    let shape = Shape {
        inputs: file.network.inputs,
        hidden: file.network.hidden,
        actions: file.network.actions,
    };
    if !shape.is_reasonable() {
        return Err(corrupt(format!(
            "a network of {} inputs, hidden layers {:?} and {} actions is not one gdl writes",
            shape.inputs, shape.hidden, shape.actions
        )));
    }
    let ours = network_shape(game, &shape.hidden).map_err(|reason| AzFileError::Shape {
        path: shown.clone(),
        game: id.game.clone(),
        reason,
    })?;
    if (ours.inputs, ours.actions) != (shape.inputs, shape.actions) {
        return Err(AzFileError::Shape {
            path: shown.clone(),
            game: id.game.clone(),
            reason: format!(
                "it reads {} numbers and chooses among {} moves; the game gives {} and numbers {}",
                shape.inputs, shape.actions, ours.inputs, ours.actions
            ),
        });
    }
    if let Some(k) = file.network.weights.iter().position(|w| !w.is_finite()) {
        return Err(corrupt(format!("weight {k} is not a finite number")));
    }
    let count = file.network.weights.len();
    let net = Net::from_parts(shape.clone(), file.network.weights).ok_or_else(|| {
        corrupt(format!(
            "it holds {count} weights; a network of its shape has {}",
            shape.parameters()
        ))
    })?;
    Ok((net, file.training))
}
