#[rt::test(worker_threads = 2)]
async fn test_default_flavor() {}

#[rt::main(flavor = "current_thread", worker_threads = 2)]
async fn explicit_current_thread() {}

#[rt::main(worker_threads = 0)]
async fn no_workers() {}

fn main() {}
