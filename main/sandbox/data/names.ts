/** Word lists for realistic, obviously fictional entity names (all domains use `.example`). */

export const publisherNames: readonly string[] = [
  'Northwind Media', 'Acme News', 'Contoso Daily', 'Fabrikam Sports', 'Tailspin Travel',
  'Woodgrove Finance', 'Litware Tech', 'Adatum Weather', 'Proseware Games', 'Lucerne Living',
  'Fourth Coffee Food', 'Wingtip Autos', 'Alpine Ski Journal', 'Blue Yonder Health', 'Coho Wine Review',
  'Graphic Design Weekly', 'Humongous Kids', 'Margie Travel Guide', 'Nod Publishers', 'Southridge Video',
  'Trey Research Science', 'Wide World Importers Blog', 'City Power Energy', 'Consolidated Messenger',
  'Datum Home & Garden', 'First Up Fashion', 'Relecloud Music', 'Munson Pickles Recipes', 'VanArsdel Style',
  'Bellows College Life', 'Lamna Health Today', 'Best For You Organics', 'Wingtip Toys Parents', 'Tasmanian Traders',
  'Alpine Outdoor', 'Liberty Delightful Sinful Bakery', 'Boulder Innovations', 'Cronus Business Review',
  'Great Lakes Gazette', 'Riverside Chronicle', 'Harbor Light Radio', 'Summit Science Daily',
  'Evergreen Parenting', 'Redwood Film Club', 'Silverline Tech Review', 'Maple Street Journal',
]

export const brandPrefixes: readonly string[] = [
  'Contoso', 'Fabrikam', 'Northwind', 'Tailspin', 'Woodgrove', 'Litware', 'Adatum', 'Proseware', 'Lucerne',
  'Wingtip', 'Alpine', 'Coho', 'Humongous', 'Margie', 'Southridge', 'Trey', 'Relecloud', 'VanArsdel',
  'Munson', 'Bellows', 'Lamna', 'Boulder', 'Cronus', 'Evergreen', 'Redwood', 'Silverline', 'Bluebird',
  'Sunny Side', 'Brightwater', 'Oakhill',
]

export const brandProducts: readonly string[] = [
  'Coffee', 'Motors', 'Airlines', 'Bank', 'Insurance', 'Shoes', 'Cosmetics', 'Telecom', 'Pet Food',
  'Sportswear', 'Bikes', 'Watches', 'Hotels', 'Streaming', 'Snacks', 'Water', 'Furniture', 'Energy',
  'Pharmacy', 'Outdoor Gear', 'Toys', 'Electronics', 'Cereal', 'Juice', 'Jewelry',
]

export const agencyFirst: readonly string[] = [
  'Blue Harbor', 'Granite', 'Kite & Key', 'Northstar', 'Parallel', 'Red Maple', 'Silver Fern', 'Tidewater',
  'Upward', 'Wildflower', 'Clearview', 'Copperline', 'Driftwood', 'Ember', 'Foxglove', 'Ironbridge',
]

export const agencySecond: readonly string[] = [
  'Partners', 'Media Group', 'Collective', 'Agency', 'Digital', 'Communications', 'Studio', 'Works',
]

export const bidderNames: readonly string[] = [
  'Bidsmith DSP', 'Cobalt Demand', 'Lighthouse Trading Desk', 'Mosaic Bidder', 'Orbit Ads', 'Pinnacle RTB',
  'Quasar Demand', 'Riverbid', 'Sable Programmatic', 'Tangent DSP', 'Umbra Bidding', 'Vector Reach',
  'Willow Demand', 'Xenon Exchange Buyer', 'Yardstick DSP', 'Zephyr Bids', 'Amber Auction Partner',
  'Beacon Buy-Side', 'Cascade DSP', 'Delta Bid Labs', 'Echo Programmatic', 'Fjord Media Buying',
  'Glacier Demand', 'Halo Bidder', 'Indigo DSP', 'Juniper Bids', 'Kestrel Trading', 'Lumen Demand',
]

export const placements: readonly string[] = [
  'homepage_top', 'homepage_sidebar', 'article_inline', 'article_bottom', 'gallery', 'video_preroll',
  'mobile_sticky', 'search_results', 'newsletter', 'section_front', 'interstitial', 'footer',
]

export const sizes: readonly string[] = ['300x250', '728x90', '320x50', '160x600', '300x600', '970x250', '336x280']

export const sections: readonly string[] = [
  'news', 'sports', 'business', 'tech', 'travel', 'food', 'health', 'culture', 'science', 'style', 'opinion', 'local',
]

export const slugWords: readonly string[] = [
  'market', 'update', 'guide', 'review', 'best', 'how-to', 'week', 'city', 'season', 'report', 'new', 'top',
  'morning', 'budget', 'family', 'trail', 'recipe', 'match', 'final', 'launch', 'storm', 'election', 'study', 'vote',
]

export const bulkAdjectives: readonly string[] = [
  'Quiet', 'Bright', 'Daily', 'Urban', 'Coastal', 'Mountain', 'Golden', 'Modern', 'Rural', 'Open', 'Swift', 'Clever',
]

export const bulkNouns: readonly string[] = [
  'Herald', 'Post', 'Times', 'Review', 'Digest', 'Observer', 'Courier', 'Bulletin', 'Ledger', 'Gazette', 'Monitor', 'Voice',
]

/** Countries with their display names (ISO 3166-1 alpha-2); also the reporting mapping. */
export const countries: ReadonlyArray<readonly [string, string, number]> = [
  // code, name, relative CPM
  ['AU', 'Australia', 1.4], ['BR', 'Brazil', 0.5], ['CA', 'Canada', 1.5], ['CH', 'Switzerland', 1.8],
  ['DE', 'Germany', 1.3], ['ES', 'Spain', 0.8], ['FR', 'France', 1.1], ['GB', 'United Kingdom', 1.5],
  ['IN', 'India', 0.25], ['IT', 'Italy', 0.8], ['JP', 'Japan', 1.3], ['MX', 'Mexico', 0.45],
  ['NL', 'Netherlands', 1.2], ['PL', 'Poland', 0.6], ['SE', 'Sweden', 1.3], ['US', 'United States', 2],
]

export const deviceTypes: ReadonlyArray<readonly [string, string, number]> = [
  ['ctv', 'Connected TV', 3], ['desktop', 'Desktop', 1.2], ['mobile', 'Mobile', 0.8], ['tablet', 'Tablet', 1],
]

export const dealTypes: ReadonlyArray<readonly [string, string, number]> = [
  ['open_auction', 'Open auction', 1], ['preferred_deal', 'Preferred deal', 1.6],
  ['private_auction', 'Private auction', 1.4], ['programmatic_guaranteed', 'Programmatic guaranteed', 2.2],
]

/** Lower-case, dash-separated form of a name, for domains and slugs. */
export function slugify(name: string): string {
  return name.toLowerCase().replace(/&/g, 'and').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
}
