//! The HTTP side: the page, the event stream and a small JSON API. Every
//! refusal is a 4xx (5xx when an engine is down) with `{"error": "…"}`.

use std::convert::Infallible;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request, State};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::stream::{self, Stream, StreamExt};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio_stream::wrappers::BroadcastStream;

use crate::app::{ApiError, App, MoveArg, NewGame, Settings};

/// The page: one HTML file with its SVG drawing and script.
pub const PAGE: &str = include_str!("page.html");

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::BAD_REQUEST);
        (status, axum::Json(json!({ "error": self.message }))).into_response()
    }
}

/// A JSON body whose rejection is an [`ApiError`] with the parser's message.
pub struct Json<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Json<T> {
    type Rejection = ApiError;
    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(v)) => Ok(Json(v)),
            Err(e) => Err(ApiError::bad(match e {
                JsonRejection::MissingJsonContentType(_) => {
                    "send the body as JSON (Content-Type: application/json)".to_string()
                }
                other => other.body_text(),
            })),
        }
    }
}

type ApiResult = Result<axum::Json<Value>, ApiError>;

#[derive(Deserialize)]
struct MoveBody {
    #[serde(rename = "move")]
    mv: MoveArg,
}

async fn page() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        PAGE,
    )
}

async fn events(State(app): State<Arc<App>>) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let rx = app.events.subscribe();
    let first = {
        let core = app.core.lock().await;
        app.state(&core).to_string()
    };
    let initial = stream::once(async move { Ok(Event::default().event("state").data(first)) });
    let rest = BroadcastStream::new(rx).filter_map(|item| async move {
        match item {
            Ok((name, data)) => Some(Ok(Event::default().event(name).data(data))),
            // A page that fell behind gets the next state whole; nothing is lost.
            Err(_) => None,
        }
    });
    Sse::new(initial.chain(rest)).keep_alive(KeepAlive::default())
}

async fn state(State(app): State<Arc<App>>) -> axum::Json<Value> {
    let core = app.core.lock().await;
    axum::Json(app.state(&core))
}

async fn play(State(app): State<Arc<App>>, Json(body): Json<MoveBody>) -> ApiResult {
    app.human_move(body.mv).await.map(axum::Json)
}

async fn check(State(app): State<Arc<App>>, Json(body): Json<MoveBody>) -> ApiResult {
    app.check_move(body.mv).await.map(axum::Json)
}

async fn new_game(State(app): State<Arc<App>>, Json(body): Json<NewGame>) -> ApiResult {
    app.new_game(body).await.map(axum::Json)
}

async fn settings(State(app): State<Arc<App>>, Json(body): Json<Settings>) -> ApiResult {
    app.settings(body).await.map(axum::Json)
}

async fn undo(State(app): State<Arc<App>>) -> ApiResult {
    app.undo().await.map(axum::Json)
}

async fn resign(State(app): State<Arc<App>>) -> ApiResult {
    app.resign().await.map(axum::Json)
}

async fn restart(State(app): State<Arc<App>>) -> ApiResult {
    app.restart().await.map(axum::Json)
}

async fn record(State(app): State<Arc<App>>) -> impl IntoResponse {
    let text = app.record().await;
    (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"tessera-game.txt\"",
            ),
        ],
        text,
    )
}

async fn load(State(app): State<Arc<App>>, body: Bytes) -> ApiResult {
    let text =
        std::str::from_utf8(&body).map_err(|_| ApiError::bad("the record is not UTF-8 text"))?;
    app.load(text).await.map(axum::Json)
}

async fn not_found(req: Request) -> ApiError {
    ApiError {
        status: 404,
        message: format!("no such page: {} {}", req.method(), req.uri().path()),
    }
}

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/events", get(events))
        .route("/api/state", get(state))
        .route("/api/move", post(play))
        .route("/api/check", post(check))
        .route("/api/new", post(new_game))
        .route("/api/settings", post(settings))
        .route("/api/undo", post(undo))
        .route("/api/resign", post(resign))
        .route("/api/restart", post(restart))
        .route("/api/record", get(record))
        .route("/api/load", post(load))
        .fallback(not_found)
        .with_state(app)
}
