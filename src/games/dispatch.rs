//! From a variant chosen at run time to generic code on its game type: [`with_game!`]
//! monomorphises the code once per game, so that nothing inside goes through a vtable.

/// Runs `$body` with `$game` naming the game type of `$variant` (a [`Variant`]): for
/// example `with_game!(variant, G => perft::<G>(depth))`. Every type it names is
/// [`Playable`].
///
/// [`Variant`]: crate::games::Variant
/// [`Playable`]: crate::games::Playable
#[macro_export]
macro_rules! with_game {
    ($variant:expr, $game:ident => $body:expr) => {
        match $variant {
            $crate::games::Variant::Lielow => {
                type $game = $crate::games::lielow::Lielow8;
                $body
            }
            $crate::games::Variant::Lielow9 => {
                type $game = $crate::games::lielow::Lielow9;
                $body
            }
            $crate::games::Variant::Egaraguti => {
                type $game = $crate::games::egaraguti::EgaraGuti;
                $body
            }
            $crate::games::Variant::Lerontenin => {
                type $game = $crate::games::lerontenin::Lerontenin;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use crate::games::{Playable, Variant};

    #[test]
    fn dispatch_reaches_the_matching_game() {
        for variant in Variant::ALL {
            assert_eq!(crate::with_game!(variant, G => G::VARIANT), variant);
        }
    }
}
