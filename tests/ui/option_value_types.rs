#[rt::main(worker_threads = "4")]
async fn threads_as_string() {}

#[rt::test(start_paused = 1)]
async fn paused_as_number() {}

#[rt::test(flavor = current_thread)]
async fn flavor_as_word() {}

#[rt::test(seed = "seven")]
async fn seed_as_string() {}

#[rt::test(crate = rt)]
async fn crate_as_word() {}

#[rt::test(crate = "not a path")]
async fn crate_not_a_path() {}

fn main() {}
