#[rt::main(name = "server")]
async fn named() {}

#[rt::test(unhandled_panic = "shutdown_runtime")]
async fn panics() {}

#[rt::main(flavor("multi_thread"))]
async fn list_syntax() {}

fn main() {}
