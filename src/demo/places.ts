import type { StateAbbr } from '../core/dataset.ts';

/**
 * Real place names for the demo inputs, grouped by a real LGA of their state. The names and
 * LGAs are real; every figure attached to them by the generator is made up, and the grouping
 * is close to the real one but not guaranteed. Archetype letters steer the hidden model:
 * I inner city, M established middle suburb, F family outer suburb, R retirement coast,
 * T regional town, X remote. `area` is how the ABS tells same-state namesakes apart.
 */
export type Archetype = 'I' | 'M' | 'F' | 'R' | 'T' | 'X';

export interface DemoLga {
  readonly state: StateAbbr;
  readonly name: string;
  /** Inside the state's Greater Capital City area. */
  readonly capital: boolean;
  /** "Name:A" entries. */
  readonly suburbs: readonly string[];
}

const L = (state: StateAbbr, name: string, capital: boolean, list: string): DemoLga => ({
  state,
  name,
  capital,
  suburbs: list.split(',').map((s) => s.trim()),
});

export const DEMO_LGAS: readonly DemoLga[] = [
  // NSW
  L('NSW', 'Sydney', true, 'Haymarket:I, Ultimo:I, Pyrmont:I, Surry Hills:I, Darlinghurst:I, Redfern:I, Glebe:I, Paddington:I'),
  L('NSW', 'Inner West', true, 'Newtown:I, Leichhardt:M, Marrickville:M, Ashfield:M, Balmain:M, Rozelle:M, Annandale:M'),
  L('NSW', 'Randwick', true, 'Kensington:I, Randwick:M, Coogee:M, Maroubra:M'),
  L('NSW', 'Waverley', true, 'Bondi:I, Bronte:M'),
  L('NSW', 'Blacktown', true, 'Blacktown:F, Mount Druitt:F, Rooty Hill:F, Quakers Hill:F, Doonside:F, Prospect:F'),
  L('NSW', 'Camden', true, 'Camden:F, Narellan:F, Oran Park:F, Harrington Park:F'),
  L('NSW', 'Penrith', true, 'Penrith:F, Kingswood:F, Glenmore Park:F'),
  L('NSW', 'Hawkesbury', true, 'Windsor:T, Richmond:T'),
  L('NSW', 'Central Coast', true, 'Gosford:M, Terrigal:R, The Entrance:R, Woy Woy:R, Ettalong Beach:R'),
  L('NSW', 'Canterbury-Bankstown', true, 'Canterbury:M, Bankstown:F, Lakemba:F'),
  L('NSW', 'Fairfield', true, 'Fairfield:F, Cabramatta:F'),
  L('NSW', 'Parramatta', true, 'Parramatta:I, Epping:M'),
  L('NSW', 'Sutherland Shire', true, 'Cronulla:R, Miranda:M, Engadine:F'),
  L('NSW', 'Willoughby', true, 'Chatswood:I'),
  L('NSW', 'Hornsby', true, 'Hornsby:M'),
  L('NSW', 'Newcastle', false, 'Newcastle:I, Hamilton:M, Merewether:M, Mayfield:M'),
  L('NSW', 'Lake Macquarie', false, 'Belmont:R, Swansea:R'),
  L('NSW', 'Wollongong', false, 'Wollongong:M, Thirroul:R, Corrimal:M'),
  L('NSW', 'Port Macquarie-Hastings', false, 'Port Macquarie:R, Lake Cathie:R, Wauchope:T'),
  L('NSW', 'Albury', false, 'Albury:T, Lavington:T'),
  L('NSW', 'Griffith', false, 'Griffith:T'),
  L('NSW', 'Parkes', false, 'Parkes:T'),
  L('NSW', 'Broken Hill', false, 'Broken Hill:X'),
  L('NSW', 'Bourke', false, 'Bourke:X'),
  L('NSW', 'Central Darling', false, 'Wilcannia:X, Menindee:X'),
  // VIC
  L('VIC', 'Melbourne', true, 'Melbourne:I, Carlton:I, Docklands:I, Southbank:I, North Melbourne:I, Kensington:I, Parkville:I'),
  L('VIC', 'Yarra', true, 'Richmond:I, Fitzroy:I, Collingwood:I, Abbotsford:I'),
  L('VIC', 'Port Phillip', true, 'St Kilda:I, South Melbourne:I, Albert Park:M'),
  L('VIC', 'Stonnington', true, 'Toorak:M, Malvern:M, Windsor:I, Prahran:I'),
  L('VIC', 'Boroondara', true, 'Hawthorn:M, Kew:M, Camberwell:M, Surrey Hills:M, Canterbury:M, Balwyn:M'),
  L('VIC', 'Bayside', true, 'Brighton:M, Sandringham:M, Hampton:M'),
  L('VIC', 'Whitehorse', true, 'Box Hill:M, Mitcham:M, Blackburn:M'),
  L('VIC', 'Knox', true, 'Bayswater:F, Boronia:F, Ferntree Gully:F'),
  L('VIC', 'Casey', true, 'Cranbourne:F, Berwick:F, Narre Warren:F, Clyde North:F'),
  L('VIC', 'Wyndham', true, 'Werribee:F, Hoppers Crossing:F, Point Cook:F, Tarneit:F, Truganina:F'),
  L('VIC', 'Hume', true, 'Craigieburn:F, Broadmeadows:F, Sunbury:F'),
  L('VIC', 'Melton', true, 'Melton:F, Caroline Springs:F'),
  L('VIC', 'Whittlesea', true, 'Epping:F, South Morang:F, Mernda:F'),
  L('VIC', 'Darebin', true, 'Northcote:I, Fairfield:M, Preston:M, Thornbury:M'),
  L('VIC', 'Maribyrnong', true, 'Footscray:I, Yarraville:M, Seddon:M'),
  L('VIC', 'Mornington Peninsula', true, 'Rosebud:R, Sorrento:R, Dromana:R, Rye:R, Mornington:R, Red Hill:R'),
  L('VIC', 'Greater Geelong', false, 'Geelong:M, Newtown:M, Belmont:M, Ocean Grove:R'),
  L('VIC', 'Surf Coast', false, 'Torquay:R, Anglesea:R, Lorne:R'),
  L('VIC', 'Ballarat', false, 'Ballarat Central:T, Sebastopol:T, Wendouree:T, Alfredton:F, Ascot:T, Mount Pleasant:T'),
  L('VIC', 'Greater Bendigo', false, 'Bendigo:T, Kangaroo Flat:T, Eaglehawk:T, Ascot:T'),
  L('VIC', 'East Gippsland', false, 'Lakes Entrance:R, Bairnsdale:T, Mallacoota:R'),
  L('VIC', 'Southern Grampians', false, 'Hamilton:T'),
  L('VIC', 'Mildura', false, 'Mildura:T, Merbein:T'),
  // QLD
  L('QLD', 'Brisbane', true, 'Brisbane City:I, Fortitude Valley:I, South Brisbane:I, West End:I, New Farm:I, Kangaroo Point:I, Toowong:I, St Lucia:I, Paddington:M, Hamilton:M, Ascot:M, Windsor:M, Red Hill:M, Fairfield:M, Kenmore:M, Indooroopilly:M, Belmont:M, Brighton:R'),
  L('QLD', 'Ipswich', true, 'Ipswich:T, Springfield:F, Springfield Lakes:F, Redbank Plains:F, Goodna:F'),
  L('QLD', 'Logan', true, 'Logan Central:F, Springwood:F, Beenleigh:F, Browns Plains:F, Kingston:F'),
  L('QLD', 'Moreton Bay', true, 'Caboolture:F, North Lakes:F, Redcliffe:R, Woody Point:R'),
  L('QLD', 'Gold Coast', false, 'Surfers Paradise:I, Southport:M, Burleigh Heads:R, Coolangatta:R, Coomera:F, Palm Beach:R'),
  L('QLD', 'Sunshine Coast', false, 'Caloundra:R, Maroochydore:R, Mooloolaba:R, Buderim:R'),
  L('QLD', 'Noosa', false, 'Noosa Heads:R, Tewantin:R'),
  L('QLD', 'Fraser Coast', false, 'Urangan:R, Pialba:R, Torquay:R, Maryborough:T'),
  L('QLD', 'Townsville', false, 'Townsville City:I, Aitkenvale:M, Kirwan:F'),
  L('QLD', 'Cairns', false, 'Cairns City:I, Edge Hill:M, Smithfield:F'),
  L('QLD', 'Toowoomba', false, 'Toowoomba City:T, Newtown:M, Rangeville:M'),
  L('QLD', 'Richmond', false, 'Richmond:X'),
  L('QLD', 'Longreach', false, 'Longreach:X'),
  L('QLD', 'Winton', false, 'Winton:X'),
  L('QLD', 'Cook', false, 'Cooktown:X'),
  L('QLD', 'Weipa', false, 'Weipa:X'),
  L('QLD', 'Torres', false, 'Thursday Island:X'),
  L('QLD', 'Carpentaria', false, 'Normanton:X'),
  L('QLD', 'Murweh', false, 'Charleville:X'),
  L('QLD', 'Paroo', false, 'Cunnamulla:X'),
  // SA
  L('SA', 'Adelaide', true, 'Adelaide:I, North Adelaide:I'),
  L('SA', 'Norwood Payneham and St Peters', true, 'Norwood:M, Kensington:M, St Peters:M'),
  L('SA', 'Unley', true, 'Unley:M, Parkside:M, Malvern:M'),
  L('SA', 'Mitcham', true, 'Mitcham:M, Belair:M, Springfield:M'),
  L('SA', 'Holdfast Bay', true, 'Glenelg:R, Brighton:R, Somerton Park:R'),
  L('SA', 'Charles Sturt', true, 'Woodville:M, Henley Beach:R, Findon:M'),
  L('SA', 'West Torrens', true, 'Richmond:M'),
  L('SA', 'Prospect', true, 'Prospect:M'),
  L('SA', 'Port Adelaide Enfield', true, 'Port Adelaide:M, Queenstown:M'),
  L('SA', 'Salisbury', true, 'Salisbury:F, Parafield Gardens:F, Paralowie:F'),
  L('SA', 'Playford', true, 'Elizabeth:F, Munno Para:F, Andrews Farm:F, Smithfield:F'),
  L('SA', 'Onkaparinga', true, 'Noarlunga Centre:F, Seaford:F, Aldinga Beach:R, Port Noarlunga:R'),
  L('SA', 'Adelaide Hills', true, 'Stirling:M'),
  L('SA', 'Mount Barker', false, 'Mount Barker:F'),
  L('SA', 'Victor Harbor', false, 'Victor Harbor:R, Encounter Bay:R'),
  L('SA', 'Whyalla', false, 'Whyalla:T'),
  L('SA', 'Port Augusta', false, 'Port Augusta:T'),
  L('SA', 'Coober Pedy', false, 'Coober Pedy:X'),
  // WA
  L('WA', 'Perth', true, 'Perth:I, Northbridge:I, East Perth:I, West Perth:I'),
  L('WA', 'Vincent', true, 'Leederville:I, Mount Lawley:I, North Perth:M'),
  L('WA', 'Belmont', true, 'Belmont:M, Ascot:M, Kewdale:M'),
  L('WA', 'Bayswater', true, 'Bayswater:M, Maylands:M, Bedford:M'),
  L('WA', 'Victoria Park', true, 'Kensington:M, Victoria Park:M'),
  L('WA', 'Bassendean', true, 'Ashfield:M'),
  L('WA', 'Wanneroo', true, 'Wanneroo:F, Clarkson:F, Butler:F, Alkimos:F'),
  L('WA', 'Joondalup', true, 'Joondalup:M, Hillarys:R'),
  L('WA', 'Stirling', true, 'Scarborough:R, Stirling:M, Innaloo:M'),
  L('WA', 'Nedlands', true, 'Nedlands:M'),
  L('WA', 'Fremantle', true, 'Fremantle:I, South Fremantle:M, O\'Connor:M'),
  L('WA', 'Rockingham', true, 'Rockingham:R, Baldivis:F, Safety Bay:R'),
  L('WA', 'Mandurah', true, 'Mandurah:R, Halls Head:R, Falcon:R'),
  L('WA', 'Busselton', false, 'Busselton:R, Dunsborough:R'),
  L('WA', 'Albany', false, 'Albany:T'),
  L('WA', 'Plantagenet', false, 'Mount Barker:T'),
  L('WA', 'Kalgoorlie-Boulder', false, 'Kalgoorlie:T, Boulder:T'),
  L('WA', 'Broome', false, 'Broome:X'),
  L('WA', 'East Pilbara', false, 'Newman:X'),
  L('WA', 'Karratha', false, 'Karratha:X, Dampier:X'),
  L('WA', 'Halls Creek', false, 'Halls Creek:X'),
  // TAS
  L('TAS', 'Hobart', true, 'Hobart:I, Sandy Bay:M, Battery Point:I, North Hobart:I, New Town:M, West Hobart:M'),
  L('TAS', 'Clarence', true, 'Bellerive:M, Lindisfarne:M, Howrah:M, Richmond:T'),
  L('TAS', 'Glenorchy', true, 'Glenorchy:F, Moonah:M'),
  L('TAS', 'Kingborough', true, 'Kingston:F, Blackmans Bay:R'),
  L('TAS', 'Brighton', true, 'Brighton:F'),
  L('TAS', 'Launceston', false, 'Launceston:T, Newstead:M, Invermay:M, Kings Meadows:M'),
  L('TAS', 'Devonport', false, 'Devonport:T'),
  L('TAS', 'Burnie', false, 'Burnie:T'),
  L('TAS', 'West Coast', false, 'Queenstown:X, Strahan:X, Zeehan:X'),
  L('TAS', 'Glamorgan-Spring Bay', false, 'Swansea:R, Bicheno:R, Orford:R'),
  L('TAS', "Break O'Day", false, 'St Helens:R'),
  L('TAS', 'Flinders', false, 'Whitemark:X'),
  L('TAS', 'King Island', false, 'Currie:X'),
  // NT
  L('NT', 'Darwin', true, 'Darwin City:I, Larrakeyah:I, Stuart Park:I, Parap:I, Fannie Bay:M, Nightcliff:M, Casuarina:M, Rapid Creek:M, Millner:M'),
  L('NT', 'Palmerston', true, 'Palmerston City:F, Rosebery:F, Bakewell:F, Durack:F'),
  L('NT', 'Litchfield', true, 'Humpty Doo:T, Howard Springs:T'),
  L('NT', 'Alice Springs', false, 'Alice Springs:T, Braitling:T, Gillen:T, Araluen:T, The Gap:T'),
  L('NT', 'Katherine', false, 'Katherine:X'),
  L('NT', 'Barkly', false, 'Tennant Creek:X'),
  L('NT', 'East Arnhem', false, 'Nhulunbuy:X'),
  L('NT', 'West Arnhem', false, 'Jabiru:X'),
  L('NT', 'Central Desert', false, 'Yuendumu:X'),
  L('NT', 'MacDonnell', false, 'Hermannsburg:X'),
  // ACT (one LGA: Unincorporated ACT)
  L('ACT', 'Unincorporated ACT', true, 'Braddon:I, Turner:I, Reid:I, Kingston:I, Barton:I, Parkes:I, Ainslie:M, Dickson:M, Lyneham:M, O\'Connor:M, Griffith:M, Forrest:M, Red Hill:M, Deakin:M, Yarralumla:M, Campbell:M, Watson:M, Hackett:M, Belconnen:M, Stirling:M, Gungahlin:F, Franklin:F, Harrison:F, Casey:F, Ngunnawal:F, Kambah:F, Wanniassa:F, Bonython:F, Palmerston:F'),
];

/** Name parts for the extra suburbs of --scale national (made-up names; some may exist). */
export const NAME_STEMS = [
  'Wattle', 'Banksia', 'Acacia', 'Myrtle', 'Bottlebrush', 'Grevillea', 'Kurrajong', 'Ironbark', 'Stringybark', 'Blackwood',
  'Redgum', 'Bluegum', 'Sheoak', 'Tea Tree', 'Saltbush', 'Magpie', 'Kookaburra', 'Rosella', 'Lyrebird', 'Currawong',
  'Emu', 'Wombat', 'Possum', 'Platypus', 'Echidna', 'Granite', 'Sandstone', 'Basalt', 'Quartz', 'Ochre',
  'Silver', 'Golden', 'Copper', 'Coral', 'Pebble', 'Boulder', 'Summit', 'Lagoon', 'Billabong', 'Gully',
  'Mallee', 'Brigalow', 'Mulga', 'Spinifex', 'Waratah', 'Boronia', 'Correa', 'Hakea', 'Lilly Pilly', 'Quandong',
];
export const NAME_ENDINGS = [
  ' Creek', ' Park', ' Heights', ' Vale', ' Hill', ' Downs', ' Flat', ' Grove', ' Springs', ' Plains',
  ' Ridge', ' Point', ' Bay', ' Beach', ' Valley', ' Gardens', ' Crossing', ' Junction', ' Waters', ' Gap',
];
export const NAME_PREFIXES = ['', 'North ', 'South ', 'East ', 'West ', 'Upper ', 'Lower ', 'Mount ', 'New ', 'Port '];
