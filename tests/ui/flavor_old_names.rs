#[rt::main(flavor = "basic_scheduler")]
async fn basic() {}

#[rt::main(flavor = "threaded_scheduler")]
async fn threaded() {}

#[rt::test(flavor = "single_thread")]
async fn single() {}

fn main() {}
