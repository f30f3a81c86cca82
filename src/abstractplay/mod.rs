//! Playing on AbstractPlay (play.abstractplay.com), whose bots receive signed HTTPS
//! webhooks and post their moves back.
//!
//! - [`verify`]: every webhook's Ed25519 signature (over its timestamp, nonce and raw
//!   body), its age and its nonce, checked before its body is parsed;
//! - [`payload`]: the webhooks' bodies, whether a challenge is taken, and the game a move
//!   request stands for, rebuilt from its rounds;
//! - [`webhook`]: the answer to one request at the bot's endpoint (ping, challenge, move);
//! - [`think`]: the bot's move in a rebuilt game, searched for the time its clock allows;
//! - [`turns`]: each game's seat and last turn posted, so that a turn delivered again is
//!   not played twice, kept across restarts;
//! - [`client`]: the bot's calls to AbstractPlay: its token and the moves it posts;
//! - [`http`]: reading one request at the endpoint and writing its answer;
//! - [`service`]: the running bot: the endpoint, the queue of moves, the workers, the log;
//! - Lielow's moves in AbstractPlay's notation: `games::lielow::abstractplay`.

pub mod client;
pub mod http;
pub mod payload;
pub mod service;
pub mod think;
pub mod turns;
pub mod verify;
pub mod webhook;
