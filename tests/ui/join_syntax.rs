async fn missing_comma() {
    rt::join!(async { 1 } async { 2 });
}

async fn try_join_needs_results() {
    let _ = rt::try_join!(async { 1 });
}

fn main() {}
