#[rt::main(start_paused = true)]
async fn main_default_flavor() {}

#[rt::test(flavor = "multi_thread", start_paused = true)]
async fn explicit_multi_thread() {}

fn main() {}
