//! The macros work wherever their caller is: inside
//! `#![no_implicit_prelude]` modules, next to user names that look like the
//! expansion's own, and through a renamed `rt`.

#![cfg(feature = "macros")]

mod macros_common;

extern crate rt as renamed;

use macros_common::block_on;

#[no_implicit_prelude]
mod without_prelude {
    pub async fn select_join_pin() -> u32 {
        let a = async { 1u32 };
        ::rt::pin!(a);
        let picked = ::rt::select! {
            ::core::option::Option::Some(v) = async { ::core::option::Option::Some(2u32) } => v,
            v = &mut a, if false => v,
            else => 0,
        };
        let (x, y) = ::rt::join!(a, async { 3u32 });
        let tried = ::rt::try_join!(async { ::core::result::Result::Ok::<u32, ()>(4) });
        let z = match tried {
            ::core::result::Result::Ok((z,)) => z,
            ::core::result::Result::Err(()) => 0,
        };
        picked + x + y + z
    }
}

#[test]
fn macros_work_without_the_prelude() {
    assert_eq!(block_on(without_prelude::select_join_pin()), 2 + 1 + 3 + 4);
}

#[test]
fn macros_work_through_a_renamed_crate() {
    let out = block_on(async {
        let picked = renamed::select! { v = async { 1 } => v };
        let (a, b) = renamed::join!(async { 2 }, async { 3 });
        let c = renamed::try_join!(async { Ok::<_, ()>(4) }).map(|(c,)| c);
        picked + a + b + c.unwrap_or(0)
    });
    assert_eq!(out, 10);
}

#[test]
fn user_names_do_not_clash_with_the_expansion() {
    // Names an expansion might use internally, in the caller's scope.
    #[allow(non_snake_case)]
    let out = block_on(async {
        let __rt_disabled = 10;
        let __rt_output = 20;
        let __rt_future_0 = 30;
        let body = 40;
        let cx = 50;
        let Disabled = 60;
        let picked = rt::select! {
            v = async { __rt_disabled } => v + __rt_output + __rt_future_0 + body + cx + Disabled,
        };
        let (a, b) = rt::join!(async { __rt_output }, async { __rt_future_0 });
        picked + a + b
    });
    assert_eq!(out, 210 + 20 + 30);
}
