//! A shown figure's picture (kernel/figures.py): the tight one IPython would print, from
//! one draw when every part lies on the canvas, and IPython's own two-pass print, which
//! grows the picture, when a part lies beyond it.

use base64::Engine;

use super::{of, run, started};

/// Counts the figure's draws, shows it, and prints the count; before that, prints the size
/// of IPython's own tight print of the same figure, drawn apart.
fn shown(figure: &str) -> String {
    format!(
        "import io, matplotlib.pyplot as plt, PIL.Image\n\
         from IPython.core.pylabtools import print_figure\n\
         def figure():\n{figure}\n    return fig\n\
         apart = figure()\n\
         print('tight', *PIL.Image.open(io.BytesIO(print_figure(apart, 'png'))).size)\n\
         plt.close(apart)\n\
         fig = figure()\n\
         draws, draw = [], fig.draw\n\
         fig.draw = lambda renderer: (draws.append(1), draw(renderer))[1]\n\
         plt.show()\n\
         print('draws', len(draws))"
    )
}

/// What a shown figure gave: its picture, decoded, the size of IPython's tight print of
/// the same figure, and the draws counted.
struct Shown {
    size: (u32, u32),
    rgba: Vec<u8>,
    tight: (u32, u32),
    draws: usize,
}

impl Shown {
    /// Whether the pixel at these fractions of the width and height is dark.
    fn dark_at(&self, x: f64, y: f64) -> bool {
        let (column, row) = (
            (x * self.size.0 as f64) as usize,
            (y * self.size.1 as f64) as usize,
        );
        let at = (row * self.size.0 as usize + column) * 4;
        self.rgba[at..at + 3].iter().all(|&channel| channel < 64)
    }

    fn near_tight(&self) -> bool {
        self.size.0.abs_diff(self.tight.0) <= 4 && self.size.1.abs_diff(self.tight.1) <= 4
    }
}

async fn picture(client: &tool_api_client::ToolApiClient, figure: &str) -> Shown {
    let outputs = run(client, &shown(figure)).await;
    let [result] = &of(&outputs, "result")[..] else {
        panic!("{outputs:?}")
    };
    let png = base64::engine::general_purpose::STANDARD
        .decode(result["png"].as_str().expect("a PNG"))
        .unwrap();
    let mut reader = png::Decoder::new(std::io::Cursor::new(png)).read_info().unwrap();
    let mut rgba = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut rgba).unwrap();
    assert_eq!(frame.color_type, png::ColorType::Rgba);
    let printed: String = of(&outputs, "stdout")
        .iter()
        .filter_map(|out| out["text"].as_str())
        .collect();
    let number = |line: &str, at: usize| -> usize {
        let words: Vec<&str> = printed
            .lines()
            .find(|text| text.starts_with(line))
            .unwrap_or_else(|| panic!("no {line:?} in {printed:?}"))
            .split(' ')
            .collect();
        words[at].parse().unwrap()
    };
    Shown {
        size: (frame.width, frame.height),
        rgba,
        tight: (number("tight", 1) as u32, number("tight", 2) as u32),
        draws: number("draws", 1),
    }
}

#[tokio::test]
async fn a_figure_is_drawn_once_as_the_tight_print_shows_it() {
    let sandbox = started().await;
    let client = &sandbox.client;

    // On the canvas (640 × 480 at Matplotlib's default size): one draw, cropped as tight.
    let line = "    fig, ax = plt.subplots()\n    ax.plot([0, 1, 2], [3, 1, 2], label='walk')\n    \
                ax.set_title('Walk')\n    ax.set_xlabel('Time (s)')\n    ax.legend()";
    let shown = picture(client, line).await;
    assert_eq!(shown.draws, 1, "drawn once");
    assert!(
        shown.near_tight(),
        "{:?} against IPython's {:?}",
        shown.size,
        shown.tight
    );
    assert!(
        shown.size.0 < 640 && shown.size.1 < 480,
        "cropped: {:?}",
        shown.size
    );

    // A pie leaves its axes' box blank around it: the tight box keeps the whole box.
    let pie = picture(client, "    fig, ax = plt.subplots()\n    ax.pie([90, 10])").await;
    assert_eq!(pie.draws, 1);
    assert!(
        pie.near_tight(),
        "{:?} against IPython's {:?}",
        pie.size,
        pie.tight
    );

    // Upright whatever the user's image origin: a dark block low, white above it.
    let low = "    plt.rcParams['image.origin'] = 'lower'\n    fig = plt.figure()\n    \
               for box in ([0.1, 0.1, 0.8, 0.3], [0.1, 0.8, 0.1, 0.1]):\n        \
               ax = fig.add_axes(box, facecolor='black')\n        ax.set_xticks([])\n        \
               ax.set_yticks([])";
    let upright = picture(client, low).await;
    assert_eq!(upright.draws, 1);
    assert!(
        upright.dark_at(0.5, 0.8) && !upright.dark_at(0.5, 0.3),
        "upside down"
    );

    // A legend beyond the canvas, found once drawn: IPython's print (two draws more),
    // which grows the picture to show it.
    let outside = "    fig, ax = plt.subplots()\n    ax.plot([0, 1], [1, 0], label='far')\n    \
                   ax.legend(bbox_to_anchor=(1.6, 1), loc='upper left')";
    let far = picture(client, outside).await;
    assert_eq!((far.draws, far.size), (3, far.tight));
    assert!(far.size.0 > 640, "grown to the legend: {:?}", far.size);

    // Drawing up to the border (an image filling the canvas): IPython's print too.
    let filled = "    fig = plt.figure()\n    ax = fig.add_axes([0, 0, 1, 1])\n    \
                  ax.imshow([[0, 1], [1, 0]], aspect='auto')";
    let full = picture(client, filled).await;
    assert_eq!((full.draws, full.size), (3, full.tight));
}
