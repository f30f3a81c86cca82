//! What the engine evaluates with, as the options chose it, and what it tells of its
//! evaluation: the hand-written terms, and a network's value.

use std::sync::Arc;

use crate::eval::network::Network;
use crate::games::Variant;

/// One term of the static evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalTerm {
    pub feature: String,
    pub value: i32,
    pub weight: i32,
}

/// What the options chose to evaluate with: `Use NNUE` (a network where the variant has
/// one, or the hand-written terms) and `EvalFile` (a network loaded for one variant, in place
/// of the one it ships).
#[derive(Clone, Debug)]
pub struct EvalChoice {
    pub use_network: bool,
    pub file: Option<NetworkFile>,
}

impl Default for EvalChoice {
    fn default() -> Self {
        EvalChoice {
            use_network: true,
            file: None,
        }
    }
}

/// A network `EvalFile` loaded: for which variant, from where, and the network.
#[derive(Clone, Debug)]
pub struct NetworkFile {
    pub variant: Variant,
    /// The path as given, for people.
    pub name: String,
    pub network: Arc<Network>,
}

/// A network's value of the position, for `eval`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkEval {
    /// For the side to move, in centipawns.
    pub value: i32,
    /// Where the network came from: `built in`, or the file's path.
    pub source: String,
    /// Whether the search evaluates with it.
    pub in_use: bool,
}
