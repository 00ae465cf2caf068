#[rt::main]
async fn main(arguments: Vec<String>) {
    drop(arguments);
}
