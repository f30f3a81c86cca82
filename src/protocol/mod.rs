//! The text protocol (UGI with UCI spellings): typed commands parsed from lines.
//!
//! Only the command layer is here so far; the serve loop, the engine facade and the replies
//! come with the protocol daemon.

pub mod command;
