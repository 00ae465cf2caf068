#[rt::main(core_threads = 4)]
async fn core_threads() {}

#[rt::main(threaded_scheduler)]
async fn bare_threaded() {}

#[rt::test(basic_scheduler)]
async fn bare_basic() {}

#[rt::main(max_threads = 8)]
async fn max_threads() {}

fn main() {}
