//! Methods for the shell routes.

use crate::ToolApiClient;

impl ToolApiClient {}
