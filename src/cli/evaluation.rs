//! The command line's choice of evaluation, shared by the commands that search without the
//! protocol (`analyze`, `selfplay`): a network file, or the hand-written terms, instead of
//! what the game ships.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use ternion::engine::{EvalChoice, NetworkFile};
use ternion::eval::network::file::{self, NetworkKind};
use ternion::eval::{Evaluate, Evaluator};

#[derive(Debug, Args)]
pub struct EvaluationArgs {
    /// Search with this network (a file of `ternion train`) instead of the one built in.
    #[arg(long, value_name = "FILE", conflicts_with = "terms")]
    eval_file: Option<PathBuf>,
    /// Search with the hand-written evaluation, not a network.
    #[arg(long)]
    terms: bool,
}

impl EvaluationArgs {
    /// The choice for the engine: a network file for `G`, the terms, or what `G` ships.
    pub fn choice<G: Evaluate + ternion::games::Playable>(&self) -> Result<EvalChoice, String> {
        let file = match (self.evaluator::<G>()?, &self.eval_file) {
            (Some(Evaluator::Network(network)), Some(path)) => Some(NetworkFile {
                variant: G::VARIANT,
                name: path.display().to_string(),
                network,
            }),
            _ => None,
        };
        Ok(EvalChoice {
            use_network: !self.terms,
            file,
        })
    }

    /// The evaluator chosen for `G`, or `None` for what `G` ships; a file that is not a
    /// network of `G` is an error of one line.
    pub fn evaluator<G: Evaluate + ternion::games::Playable>(
        &self,
    ) -> Result<Option<Evaluator>, String> {
        match (&self.eval_file, self.terms) {
            (Some(path), _) => {
                let name = G::VARIANT.to_string();
                let network = file::load(path, NetworkKind::of::<G>(&name), G::INPUTS)
                    .map_err(|e| format!("--eval-file {}: {e}", path.display()))?;
                Ok(Some(Evaluator::Network(Arc::new(network))))
            }
            (None, true) => Ok(Some(Evaluator::Terms)),
            (None, false) => Ok(None),
        }
    }
}
