#[rt::main(seed = 7)]
async fn main() {}
