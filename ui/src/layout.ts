// Side by side or unified: the user's choice, remembered across launches, and what each review shows.
import type { Layout, Review } from './reviews';

const KEY = 'redline.layout';

export class LayoutChoice {
  private chosen: Layout;

  constructor(private storage: Pick<Storage, 'getItem' | 'setItem'> | null) {
    this.chosen = storage?.getItem(KEY) === 'unified' ? 'unified' : 'split';
  }

  choose(layout: Layout): void {
    this.chosen = layout;
    this.storage?.setItem(KEY, layout);
  }

  /** A review keeps the layout picked while it showed; else a new file, with nothing on the left, shows
   * in one column; else the user's choice. */
  of(review: Review): Layout {
    return review.layout ?? (review.detail.newFile ? 'unified' : this.chosen);
  }
}
